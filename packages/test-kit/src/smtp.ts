import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server accepted. */
interface ReceivedMail {
  from: string | null;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 (ephemeral port) that records what it receives. */
export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Answer the next RCPT TO with this SMTP status (e.g. 550 permanent, 451 temporary). */
  rejectNextRecipient(responseCode: number): void;
  close(): Promise<void>;
}

/** Starts the server; `close()` it in `afterAll`. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const rejections: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const code = rejections.shift();
      if (code === undefined) return callback();
      return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address;
        received.push({
          from,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    rejectNextRecipient: (code) => rejections.push(code),
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
