import './composer.css';
import { Box, Button, Group, Text } from '@mantine/core';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';

/** One toolbar button: says what it does and whether it is on. */
function Tool({ editor, label, active, run }: { editor: Editor; label: string; active: boolean; run: (e: Editor) => void }) {
  return (
    <Button size="compact-xs" variant={active ? 'filled' : 'default'} aria-pressed={active} onClick={() => run(editor)} onMouseDown={(e) => e.preventDefault()}>
      {label}
    </Button>
  );
}

/**
 * The newsletter body: a Tiptap editor (paragraphs, headings, bold, italic, lists, links, quotes).
 * Enter starts a new paragraph, and pasted text with blank lines arrives as paragraphs.
 */
export function RichTextEditor({ label, html, onChange }: { label: string; html: string; onChange: (html: string) => void }) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false, autolink: true, defaultProtocol: 'https' } })],
    content: html,
    editorProps: { attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', 'data-testid': 'rich-text', class: 'composer-body' } },
    onUpdate: ({ editor }) => onChange(editor.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor }) => ({
      bold: editor?.isActive('bold') ?? false,
      italic: editor?.isActive('italic') ?? false,
      h2: editor?.isActive('heading', { level: 2 }) ?? false,
      bullet: editor?.isActive('bulletList') ?? false,
      ordered: editor?.isActive('orderedList') ?? false,
      quote: editor?.isActive('blockquote') ?? false,
      link: editor?.isActive('link') ?? false,
    }),
  });
  useEffect(() => () => editor?.destroy(), [editor]);
  if (!editor || !state) return null;
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id="composer-label">
        {label}
      </Text>
      <Box style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-md)' }}>
        <Group gap={4} p={6} role="toolbar" aria-label="Formatting" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Tool editor={editor} label="Bold" active={state.bold} run={(e) => e.chain().focus().toggleBold().run()} />
          <Tool editor={editor} label="Italic" active={state.italic} run={(e) => e.chain().focus().toggleItalic().run()} />
          <Tool editor={editor} label="Heading" active={state.h2} run={(e) => e.chain().focus().toggleHeading({ level: 2 }).run()} />
          <Tool editor={editor} label="Bullet list" active={state.bullet} run={(e) => e.chain().focus().toggleBulletList().run()} />
          <Tool editor={editor} label="Numbered list" active={state.ordered} run={(e) => e.chain().focus().toggleOrderedList().run()} />
          <Tool editor={editor} label="Quote" active={state.quote} run={(e) => e.chain().focus().toggleBlockquote().run()} />
          <Tool
            editor={editor}
            label={state.link ? 'Remove link' : 'Link'}
            active={state.link}
            run={(e) => {
              if (e.isActive('link')) return void e.chain().focus().unsetLink().run();
              const href = window.prompt('Link address (https://…)');
              if (href) e.chain().focus().extendMarkRange('link').setLink({ href }).run();
            }}
          />
        </Group>
        <Box p="sm" style={{ minHeight: 240 }}>
          <EditorContent editor={editor} />
        </Box>
      </Box>
    </div>
  );
}
