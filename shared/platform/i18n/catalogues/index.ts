import type { Locale } from '../locales';
import { de } from './de';
import { en, type Catalogue, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';
import { ja } from './ja';
import { ptBR } from './pt-BR';

export type { Catalogue, MessageKey };

export const CATALOGUES: Record<Locale, Catalogue> = { en, fr, de, es, 'pt-BR': ptBR, ja };
