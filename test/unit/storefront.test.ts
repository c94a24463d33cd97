import { describe, expect, it } from 'vitest';
import { commissionCents, totalSales } from '../../shared/storefront/partners/commission';
import { applyDiscount, DISCOUNT_CODE_PATTERN, isExhausted, isExpired, normalizeCode } from '../../shared/storefront/discounts/discount-math';
import { isImageType, normalizeDeclaredType, sniffImageType } from '../../shared/storefront/images/image-sniff';
import { acceptedImage } from '../../shared/storefront/images/service';
import { storefrontOperations } from '../../shared/storefront/operations';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);

describe('discount math', () => {
  it('takes a percentage off, rounding to the cent', () => {
    expect(applyDiscount(2999, { valueType: 'percentage', percentOff: 10 })).toEqual({ amountOffCents: 300, finalPriceCents: 2699 });
    expect(applyDiscount(1000, { valueType: 'percentage', percentOff: 33.33 })).toEqual({ amountOffCents: 333, finalPriceCents: 667 });
    expect(applyDiscount(1000, { valueType: 'percentage', percentOff: 100 })).toEqual({ amountOffCents: 1000, finalPriceCents: 0 });
  });

  it('takes a fixed amount off and never goes below zero', () => {
    expect(applyDiscount(2000, { valueType: 'fixed', amountOffCents: 500 })).toEqual({ amountOffCents: 500, finalPriceCents: 1500 });
    expect(applyDiscount(300, { valueType: 'fixed', amountOffCents: 500 })).toEqual({ amountOffCents: 300, finalPriceCents: 0 });
    expect(applyDiscount(0, { valueType: 'percentage', percentOff: 50 })).toEqual({ amountOffCents: 0, finalPriceCents: 0 });
  });

  it('matches codes case-insensitively and accepts only the documented characters', () => {
    expect(normalizeCode(' summer-10 ')).toBe('SUMMER-10');
    expect(DISCOUNT_CODE_PATTERN.test('ab')).toBe(false);
    expect(DISCOUNT_CODE_PATTERN.test('A_b-9')).toBe(true);
    expect(DISCOUNT_CODE_PATTERN.test('has space')).toBe(false);
    expect(DISCOUNT_CODE_PATTERN.test('x'.repeat(33))).toBe(false);
  });

  it('expires at the stated instant and is used up at maxUses', () => {
    const at = Date.parse('2030-01-01T00:00:00Z');
    expect(isExpired('2030-01-01T00:00:00Z', at - 1)).toBe(false);
    expect(isExpired('2030-01-01T00:00:00Z', at)).toBe(true);
    expect(isExpired(undefined, at)).toBe(false);
    expect(isExhausted(2, 3)).toBe(false);
    expect(isExhausted(3, 3)).toBe(true);
    expect(isExhausted(1000, undefined)).toBe(false);
  });
});

describe('image sniffing', () => {
  it('recognises the four accepted formats by their bytes', () => {
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(JPEG)).toBe('image/jpeg');
    expect(sniffImageType(GIF)).toBe('image/gif');
    expect(sniffImageType(WEBP)).toBe('image/webp');
  });

  it('refuses other content, truncated headers and look-alikes', () => {
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.7'))).toBeUndefined();
    expect(sniffImageType(PNG.subarray(0, 4))).toBeUndefined();
    expect(sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WAVE')]))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('normalises the declared type', () => {
    expect(normalizeDeclaredType('image/JPG')).toBe('image/jpeg');
    expect(normalizeDeclaredType('image/png; charset=binary')).toBe('image/png');
    expect(isImageType('image/svg+xml')).toBe(false);
  });

  it('accepts one file in the image field whose bytes match its declared type', () => {
    const file = { filename: 'a.png', mimetype: 'image/png', content: PNG };
    expect(acceptedImage({ image: [file] }).contentType).toBe('image/png');
    expect(() => acceptedImage({ file: [file] })).toThrow(/file/);
    expect(() => acceptedImage({})).toThrow(/image/);
    expect(() => acceptedImage({ image: [file, file] })).toThrow(/one file/);
    expect(() => acceptedImage({ image: [{ ...file, mimetype: 'image/gif' }] })).toThrow(/not image\/gif/);
    expect(() => acceptedImage({ image: [{ ...file, mimetype: 'text/html' }] })).toThrow(/not accepted/);
    expect(() => acceptedImage({ image: [{ ...file, content: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) }] })).toThrow(/more than/);
  });
});

describe('partner commission', () => {
  it('computes commission in cents, half-up', () => {
    expect(commissionCents(10000, 20)).toBe(2000);
    expect(commissionCents(999, 12.5)).toBe(125);
    expect(commissionCents(1000, 0)).toBe(0);
    expect(commissionCents(-100, 10)).toBe(0);
  });

  it('sums referral sales', () => {
    expect(totalSales([])).toEqual({ sales: 0, revenueCents: 0, commissionCents: 0 });
    expect(
      totalSales([
        { amountCents: 1000, commissionCents: 100 },
        { amountCents: 2500, commissionCents: 250 },
      ]),
    ).toEqual({ sales: 2, revenueCents: 3500, commissionCents: 350 });
  });
});

describe('operations', () => {
  it('offers the documented MCP tools (image upload through its JSON form), and none for the public routes', () => {
    const tools = storefrontOperations.filter((op) => op.tool).map((op) => op.tool);
    expect(tools.sort()).toEqual(
      [
        'list_discounts',
        'create_discount',
        'get_discount',
        'update_discount',
        'delete_discount',
        'apply_discount',
        'check_product_discount',
        'list_upsells',
        'create_upsell',
        'get_upsell',
        'update_upsell',
        'delete_upsell',
        'list_images',
        'upload_image',
        'delete_image',
        'get_creator_page',
        'update_creator_page',
        'create_creator_page_link',
        'update_creator_page_link',
        'delete_creator_page_link',
        'list_partners',
        'create_partner',
        'register_partner_referral',
        'list_partner_referrals',
        'list_partner_referral_sales',
        'get_partner_stats',
        'list_reviews',
        'list_refund_policies',
        'create_refund_policy',
        'get_refund_policy',
      ].sort(),
    );
    const publicOps = storefrontOperations.filter((op) => op.auth !== 'key').map((op) => `${op.method} ${op.path}`);
    expect(publicOps.sort()).toEqual(['GET /images/file/{token}', 'POST /reviews/submit/{token}']);
  });
});
