/**
 * Server-sent events (text/event-stream): the answer of routes that can stream, chosen by the
 * client with `Accept: text/event-stream`.
 */
export const acceptsEventStream = (req: Request): boolean => (req.headers.get('accept') ?? '').toLowerCase().includes('text/event-stream');

export interface EventSink {
  send(event: string, data: unknown): void;
}

/**
 * A streamed answer: `produce` writes events until it resolves, then the stream ends. A client
 * that goes away does not stop `produce` (the work it records must finish); its events are dropped.
 */
export function eventStreamResponse(status: number, produce: (sink: EventSink) => Promise<void>): Response {
  const encoder = new TextEncoder();
  let open = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const sink: EventSink = {
        send(event, data) {
          if (!open) return;
          try {
            controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch {
            open = false;
          }
        },
      };
      void produce(sink)
        .catch(() => sink.send('error', { code: 'SYSTEM_ERROR', message: 'The stream failed' }))
        .finally(() => {
          if (!open) return;
          open = false;
          controller.close();
        });
    },
    cancel() {
      open = false;
    },
  });
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' },
  });
}
