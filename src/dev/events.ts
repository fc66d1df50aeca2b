/**
 * Server-sent events for `site dev` (/__site/events): every open page holds one stream. A new
 * stream first gets the current state, then each event as it happens; a comment line every 15 s
 * keeps idle connections open.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One event: its name and JSON data. */
export interface DevEvent {
  name: string;
  data: unknown;
}

/** The open streams. */
export interface EventHub {
  /** Answers a request with a stream that starts with `first`; `file` is the page that opened it. */
  connect(request: IncomingMessage, response: ServerResponse, first: DevEvent, file?: string): void;
  /** The files of the pages that hold a stream. */
  openFiles(): Set<string>;
  send(event: DevEvent): void;
  /** Number of open streams. */
  readonly size: number;
  /** Ends every stream. */
  close(): void;
}

/** Formats one event in the text/event-stream format. */
export function formatEvent(event: DevEvent): string {
  return `event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Creates the hub; `heartbeatMs` is the interval of the keep-alive comment. */
export function createEventHub(options: { heartbeatMs?: number } = {}): EventHub {
  const streams = new Map<ServerResponse, string | undefined>();
  const heartbeat = setInterval(() => {
    for (const stream of streams.keys()) stream.write(': ping\n\n');
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();

  return {
    connect(request, response, first, file) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      // After a restart of the server, browsers reconnect within a second.
      response.write(`retry: 1000\n\n${formatEvent(first)}`);
      streams.set(response, file);
      const forget = () => streams.delete(response);
      request.on('close', forget);
      response.on('close', forget);
      response.on('error', forget);
    },
    openFiles: () => new Set([...streams.values()].filter((file): file is string => Boolean(file))),
    send(event) {
      const text = formatEvent(event);
      for (const stream of streams.keys()) stream.write(text);
    },
    get size() {
      return streams.size;
    },
    close() {
      clearInterval(heartbeat);
      for (const stream of streams.keys()) stream.end();
      streams.clear();
    },
  };
}
