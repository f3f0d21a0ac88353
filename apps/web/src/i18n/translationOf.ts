/**
 * The shape another language's messages must have: every key of the English ones, except
 * that the `_one` plural forms are optional (Japanese, for one, has no singular form).
 */
export type TranslationOf<T> = {
  [K in keyof T as K extends `${string}_one` ? never : K]: T[K] extends string
    ? string
    : TranslationOf<T[K]>;
} & {
  [K in keyof T as K extends `${string}_one` ? K : never]?: string;
};
