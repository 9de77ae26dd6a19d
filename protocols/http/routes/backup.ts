import type Koa from 'koa';
import { clientMessage } from '../../../src/observability/internal-error';
import { errorLine, line, streamNdjson } from '../ndjson';

/** What POST /v1/admin/backup needs: a check of the target, then the copy with progress. */
export interface BackupService {
  /** Throws a user or conflict error for a target that cannot be written (before anything is sent). */
  checkBackupTarget(path: unknown): string;
  backup(
    path: string,
    onProgress: (p: { bytesDone: number; bytesTotal: number }) => void,
  ): Promise<Record<string, unknown>>;
}

/**
 * POST /v1/admin/backup `{"path": "/abs/file"}`: an online copy of the database to a file on the
 * agent's machine, streamed as NDJSON: `{"progress":{"bytes_done","bytes_total"}}` lines while it
 * runs, then `{"done":{...}}` or `{"error":"..."}`. A bad target is a plain 400/409 before any line.
 */
export function handleBackup(svc: BackupService): Koa.Middleware {
  return async (ctx) => {
    const body = ctx.state.body as { path?: unknown } | null;
    const target = svc.checkBackupTarget(body && typeof body === 'object' ? body.path : undefined);
    const lines: string[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    const push = (l: string) => {
      lines.push(l);
      wake?.();
    };
    void svc
      .backup(target, (p) =>
        push(line('progress', JSON.stringify({ bytes_done: p.bytesDone, bytes_total: p.bytesTotal }))),
      )
      .then(
        (done) => push(line('done', JSON.stringify(done))),
        (err) => push(errorLine(clientMessage(err, 'HTTP backup'))),
      )
      .finally(() => {
        finished = true;
        wake?.();
      });
    streamNdjson(
      ctx,
      (async function* () {
        for (;;) {
          if (lines.length > 0) yield lines.splice(0).join('');
          else if (finished) return;
          else await new Promise<void>((r) => (wake = r));
          wake = null;
        }
      })(),
    );
  };
}
