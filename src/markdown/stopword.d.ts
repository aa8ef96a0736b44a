/**
 * Types for the `stopword` package (pinned at 3.1.5; it ships none, and @types/stopword
 * describes its 2.x API): the per-language lists stopwords.ts reads, ISO 639-3 named.
 */
declare module 'stopword' {
  export const eng: readonly string[];
  export const deu: readonly string[];
  export const fra: readonly string[];
  export const spa: readonly string[];
  export const ita: readonly string[];
  export const por: readonly string[];
  export const nld: readonly string[];
  export const dan: readonly string[];
  export const swe: readonly string[];
  export const nob: readonly string[];
  export const fin: readonly string[];
  export const pol: readonly string[];
  export const ces: readonly string[];
  export const slk: readonly string[];
  export const slv: readonly string[];
  export const hrv: readonly string[];
  export const hun: readonly string[];
  export const ron: readonly string[];
  export const rus: readonly string[];
  export const ukr: readonly string[];
  export const bul: readonly string[];
  export const ell: readonly string[];
  export const tur: readonly string[];
  export const cat: readonly string[];
  export const lit: readonly string[];
  export const lav: readonly string[];
  export const est: readonly string[];
  export const ind: readonly string[];
}
