/**
 * @module Text and attribute values handed to xmlbuilder2 so that they read back as the characters given.
 * xmlbuilder2 escapes `<` and `>` but writes `&lt;`, `&amp;` and the other predefined entity references as it
 * finds them, taking them for escaped already; a title, an argument or a term echoed back, or a record placed
 * as a string may hold such characters. Each `&` made `&amp;` first is one that xmlbuilder2 then keeps, so
 * every character comes out escaped once.
 */
export function literalText(text: string): string {
  return text.replaceAll('&', '&amp;');
}

/** Attribute values, each as `literalText`. */
export function literalAttributes(attributes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, literalText(value)]));
}
