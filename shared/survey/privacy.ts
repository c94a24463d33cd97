import type { PrivacyPart } from '../platform/privacy';
import { salesOf } from '../sales/privacy';
import { otherTextErasure, surveyOrdersOf } from './repository';

/**
 * The buyer's survey answers, found by their orders. Erasure removes the free text a buyer typed
 * ("other: ...") from each answer; the chosen option and the day counters stay, counted without
 * anyone's name. The day's tally of other-texts keeps the text without its author.
 */
const surveyPart: PrivacyPart = {
  name: 'survey',
  async *export(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const answers = await surveyOrdersOf(
        deps.store,
        scope,
        sales.map((s) => s._id),
      );
      if (answers.length) yield answers;
    }
  },
  async erase(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const answers = await surveyOrdersOf(
        deps.store,
        scope,
        sales.map((s) => s._id),
      );
      for (const answer of answers.filter((a) => a.otherText !== undefined)) await otherTextErasure(deps.store, scope, answer.saleId);
    }
  },
};

export const surveyPrivacy: PrivacyPart[] = [surveyPart];
