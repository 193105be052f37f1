/**
 * One sample of the per-version comparison (`bench/run.ts` spawns it): in this fresh process,
 * warms one pipeline — a2ui-ts on one version's corpus, or `@a2ui/web_core` on the v0.9 corpus —
 * then times it, alternating with `JSON.parse` of the very same text, in this process's CPU time,
 * and prints one JSON line: `{ pipeline, ms, parseMs }`, each the median over the samples of CPU
 * milliseconds per replay of every stream.
 *
 * Why a fresh process per pipeline: V8 optimises the code shared by every version (processor,
 * data model, validators' helpers) for the message shapes it has seen. In one process the order
 * of warm-up decides which version runs hottest (a v0.9-only warm-up ran v0.9 1.4× faster than
 * the same code warmed on all versions); here every pipeline starts from the same cold state and
 * gets the same warm-up (in CPU time) on its own input, so each version is measured as a process serving it.
 *
 * Usage: `node --import tsx bench/version-child.ts <v0.8|v0.9|v1.0|web_core> [warmUpMs] [samples] [replays]`
 * (defaults 1,500 CPU ms of warm-up, 15 samples, 20 replays per sample).
 */
import {
  A2uiMessageSchema,
  BASIC_COMPONENTS,
  BASIC_FUNCTIONS,
  Catalog,
  MessageProcessor as WebCoreProcessor,
} from '@a2ui/web_core/v0_9';
import { BASIC_CATALOG_ID, createDefaultCatalogs, MessageProcessor } from '../src/index.js';
import { median } from '../src/testing/node/index.js';
import { loadVersionCorpora } from './version-corpora.js';
import { VERSION_PIPELINES, type VersionPipeline, type VersionSample } from './version-samples.js';

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const pipeline = process.argv[2] as VersionPipeline;
if (!VERSION_PIPELINES.includes(pipeline)) {
  throw new Error(`version-child: unknown pipeline ${process.argv[2]}`);
}
const warmUpMs = Number(process.argv[3] ?? 1500);
const samples = Number(process.argv[4] ?? 15);
const replays = Number(process.argv[5] ?? 20);

const corpora = loadVersionCorpora();
const corpus = corpora.find(
  (entry) => entry.version === (pipeline === 'web_core' ? 'v0.9' : pipeline),
)!;
const streams = corpus.streams;

let run: () => void;
if (pipeline === 'web_core') {
  const catalog = new Catalog(BASIC_CATALOG_ID, BASIC_COMPONENTS, BASIC_FUNCTIONS);
  run = () => {
    for (let replay = 0; replay < replays; replay++) {
      for (const stream of streams) {
        const processor = new WebCoreProcessor([catalog]);
        for (const text of stream) {
          processor.processMessages([A2uiMessageSchema.parse(JSON.parse(text))] as never);
        }
      }
    }
  };
} else {
  const catalogs = createDefaultCatalogs();
  run = () => {
    for (let replay = 0; replay < replays; replay++) {
      for (const stream of streams) {
        const processor = new MessageProcessor({ catalogs });
        for (const text of stream) processor.process(text);
      }
    }
  };
}
const parse = () => {
  for (let replay = 0; replay < replays; replay++) {
    for (const stream of streams) for (const text of stream) JSON.parse(text);
  }
};

// Warm-up by CPU time, not wall time: on a loaded machine a wall-clock warm-up would give a
// process that waited for a core less warming than its neighbours.
const warmUntil = cpuMs() + warmUpMs;
while (cpuMs() < warmUntil) {
  run();
  parse();
}
const times: number[] = [];
const parseTimes: number[] = [];
for (let sample = 0; sample < samples; sample++) {
  let start = cpuMs();
  run();
  times.push((cpuMs() - start) / replays);
  start = cpuMs();
  parse();
  parseTimes.push((cpuMs() - start) / replays);
}
const result: VersionSample = { pipeline, ms: median(times), parseMs: median(parseTimes) };
process.stdout.write(`${JSON.stringify(result)}\n`);
