// The Snowball english (porter2) stemmer PostgreSQL's english_stem dictionary runs (npm package, no types of its own).
declare module 'wink-porter2-stemmer' {
  export default function stem(word: string): string;
}
