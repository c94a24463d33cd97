import type { Locale } from '../locales';
import { de } from './de';
import { en, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';
import { ptBR } from './pt-BR';

export type { MessageKey };
/** A language's catalogue: English's keys (a missing one falls back to English and fails the completeness test). */
export type Catalogue = Partial<Record<MessageKey, string>>;

export const CATALOGUES: Record<Locale, Catalogue> = { en, fr, de, es, 'pt-BR': ptBR, ja };
