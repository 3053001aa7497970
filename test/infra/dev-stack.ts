/**
 * The dev stage's stack, synthesized once per test worker and shared by the files that check its wiring: a synthesis
 * takes seconds alone and half a minute on a busy machine. vitest.config.ts runs the `*.synth.test.ts` files without
 * isolation (one module cache per worker), so every file a worker runs gets this same stack. Read it, never add to it: a file
 * that needs another stage config or an aspect (cdk-nag) synthesizes its own app.
 */
import { App } from 'aws-cdk-lib';
import { addPaymentsStack, type PaymentsStack } from '../../infra/stack.ts';
import { stageContext } from './stage-context.ts';

let dev: PaymentsStack | undefined;

/** The stack of `stageContext({ stage: 'dev' })`, without bundling (wiring only); Template.fromStack reuses its synthesis. */
export const devStack = (): PaymentsStack => (dev ??= addPaymentsStack(new App({ context: stageContext({ stage: 'dev' }) })));
