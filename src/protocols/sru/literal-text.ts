/**
 * @module Text handed to xmlbuilder2's `txt()` so that it reads back as the characters given. xmlbuilder2
 * escapes `<` and `>` but writes `&lt;`, `&amp;` and the other predefined entity references as it finds them,
 * taking them for escaped already; a record placed as a string holds such references (Dublin Core's and
 * ZeeRex's, written by xmlbuilder2 too), as may a query's term echoed in a diagnostic. Each `&` made `&amp;`
 * first is one that xmlbuilder2 then keeps, so every character comes out escaped once.
 */
export function literalText(text: string): string {
  return text.replaceAll('&', '&amp;');
}
