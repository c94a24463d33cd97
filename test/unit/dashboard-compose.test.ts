import { describe, expect, it } from 'vitest';
import { cleanHtml, hasWords, initialHtml, paragraphsFromText } from '../../dashboard/src/lib/compose';

describe('newsletter composer text rules', () => {
  it('turns blank lines into paragraphs and keeps single line breaks', () => {
    expect(paragraphsFromText('Hello readers\n\nWhat happened\nthis month.\n\n\n  \nBye <3')).toBe(
      '<p>Hello readers</p><p>What happened<br>this month.</p><p>Bye &lt;3</p>',
    );
    expect(paragraphsFromText('one\r\n\r\ntwo')).toBe('<p>one</p><p>two</p>');
    expect(paragraphsFromText('   ')).toBe('');
  });

  it('opens an older plain-text post as paragraphs, an HTML post as it is', () => {
    expect(initialHtml(null, 'a\n\nb')).toBe('<p>a</p><p>b</p>');
    expect(initialHtml('<h1>x</h1>', null)).toBe('<h1>x</h1>');
    expect(initialHtml('plain\n\ntext', null)).toBe('<p>plain</p><p>text</p>');
  });

  it("drops the editor's empty paragraphs and tells an empty body", () => {
    expect(cleanHtml('<p>a</p><p></p><p><br></p><p>b</p>')).toBe('<p>a</p><p>b</p>');
    expect(hasWords('<p></p>')).toBe(false);
    expect(hasWords('<p>hi</p>')).toBe(true);
  });
});
