import { describe, expect, it } from 'vitest';
import { APP } from '../../shared/app';
import { annotateMoneyUnits, moneyUnitOf } from '../../shared/docs/money-units';
import { buildOpenApi } from '../../shared/docs/openapi';

describe('money units in the contract', () => {
  it('reads the unit from the field name, and leaves counts that look like money alone', () => {
    expect(['priceCents', 'amountCents', 'balanceCents', 'topOffCents', 'totalSpentCents'].map(moneyUnitOf)).toEqual([
      'cents',
      'cents',
      'cents',
      'cents',
      'cents',
    ]);
    expect(['price', 'amount', 'revenue', 'upsellPrice', 'amountOff', 'refundedAmount', 'minimumPrice'].map(moneyUnitOf)).toEqual(Array(7).fill('major'));
    expect(['creditAmount', 'total', 'totalEmailsSent', 'quantity', 'priced'].map(moneyUnitOf)).toEqual(Array(5).fill(undefined));
  });

  it('adds the unit to a description once, nested too, and only to numbers', () => {
    const schema = {
      type: 'object',
      properties: {
        price: { type: 'number', description: 'What the buyer pays' },
        amountCents: { type: 'integer', description: 'Already in cents' },
        order: { type: 'object', properties: { amount: { anyOf: [{ type: 'number' }, { type: 'null' }] } } },
        priceLabel: { type: 'string' },
      },
    };
    annotateMoneyUnits(schema);
    annotateMoneyUnits(schema);
    expect(schema.properties.price.description).toBe('What the buyer pays. Decimal major units (19.99), at most 2 decimals.');
    expect(schema.properties.amountCents.description).toBe('Already in cents');
    expect((schema.properties.order.properties.amount as { description?: string }).description).toMatch(/major units/);
    expect((schema.properties.priceLabel as { description?: string }).description).toBeUndefined();
  });

  it('every money field of the served contract states its unit', () => {
    const spec = buildOpenApi(APP.apiOperations, 'http://localhost') as { paths: Record<string, unknown> };
    const missing: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, { type?: unknown; description?: string }> }).properties;
      for (const [field, schema] of Object.entries(properties ?? {})) {
        const unit = moneyUnitOf(field);
        if (unit && (schema.type === 'number' || schema.type === 'integer') && !(unit === 'cents' ? /cents/i : /major units/i).test(schema.description ?? ''))
          missing.push(`${where} ${field}`);
      }
      for (const value of Object.values(node)) walk(value, where);
    };
    for (const [path, item] of Object.entries(spec.paths)) walk(item, path);
    expect(missing).toEqual([]);
    expect(JSON.stringify(spec.paths)).toContain('Decimal major units');
  });
});
