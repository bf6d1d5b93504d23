/**
 * @module SIP2's dates: 18 characters, `YYYYMMDDZZZZHHMMSS`, in the library's time zone with the zone field
 * `ZZZZ` left blank (local time, as the specification allows).
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** An instant as SIP2 writes it, in the library's time zone. */
export function sip2Date(instant: Date | string, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of formatIn(timeZone).formatToParts(new Date(instant))) parts[part.type] = part.value;
  return `${parts.year}${parts.month}${parts.day}    ${parts.hour}${parts.minute}${parts.second}`;
}
