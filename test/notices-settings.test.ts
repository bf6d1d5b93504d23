/**
 * The notices' settings: the SMTP server's URL (a secret: never repeated in an error), the sender's
 * address and the library's name (one line each, nothing a header could be made of), and the days before
 * a due date a loan's notice goes out.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
};

describe('notices settings', () => {
  it('send nothing unless an SMTP server is named', () => {
    expect(loadConfig({}).notices.smtpUrl).toBeUndefined();
    expect(loadConfig({ CATALOGUE_SMTP_URL: 'smtp://mailer:s3cret@mail.example:587' }).notices.smtpUrl).toBe(
      'smtp://mailer:s3cret@mail.example:587',
    );
    expect(loadConfig({ CATALOGUE_SMTP_URL: 'smtps://mail.example' }).notices.smtpUrl).toBe('smtps://mail.example');
  });

  it('refuse an SMTP URL that is not one, without repeating it (it may hold a password)', () => {
    const message = refused({ CATALOGUE_SMTP_URL: 'http://user:hunter2@mail.example' });
    expect(message).toBe('CATALOGUE_SMTP_URL must be an smtp:// or smtps:// URL');
    expect(message).not.toContain('hunter2');
  });

  it('refuse a sender or a library name that is more than one line', () => {
    expect(loadConfig({ CATALOGUE_NOTICE_FROM: 'desk@library.example' }).notices.from).toBe('desk@library.example');
    expect(refused({ CATALOGUE_NOTICE_FROM: 'desk@library.example\r\nBcc: someone@else.example' })).toContain(
      'CATALOGUE_NOTICE_FROM must be one e-mail address',
    );
    expect(refused({ CATALOGUE_NOTICE_FROM: 'Desk <desk@library.example>' })).toContain('must be one e-mail address');
    expect(loadConfig({ CATALOGUE_LIBRARY_NAME: 'Bibliothèque de Lyon' }).notices.libraryName).toBe(
      'Bibliothèque de Lyon',
    );
    for (const name of [
      'Library\nBcc: someone@else.example',
      'Library\rBcc: x@y.example',
      'Tab\there',
      'Del\u007f',
      'C1\u0085',
      'L\u2028S',
    ]) {
      expect(refused({ CATALOGUE_LIBRARY_NAME: name })).toContain(
        'CATALOGUE_LIBRARY_NAME must be one line without control characters',
      );
    }
    for (const from of [
      'desk@library.example\nBcc: x@y.example',
      'desk@library.example\u0085',
      'desk\u007f@library.example',
    ]) {
      expect(refused({ CATALOGUE_NOTICE_FROM: from })).toContain('CATALOGUE_NOTICE_FROM must be one e-mail address');
    }
  });

  it('take the days before a due date from 1 to 60, 3 unless set', () => {
    expect(loadConfig({}).notices.dueDays).toBe(3);
    expect(loadConfig({ CATALOGUE_NOTICE_DUE_DAYS: '7' }).notices.dueDays).toBe(7);
    for (const bad of ['0', '61', '2.5', 'soon']) {
      expect(refused({ CATALOGUE_NOTICE_DUE_DAYS: bad })).toContain(
        'CATALOGUE_NOTICE_DUE_DAYS must be a whole number from 1 to 60',
      );
    }
  });
});
