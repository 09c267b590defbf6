import { jest } from '@jest/globals';
import { reportStep, STILL_RUNNING_EVERY_MS } from '../../local/backends/startup-status';

describe('reportStep', () => {
  afterEach(() => jest.useRealTimers());

  it('says when a step starts, that it is still running every few seconds, and how long it took', async () => {
    jest.useFakeTimers();
    const lines: string[] = [];
    let finish: (value: string) => void = () => undefined;
    const step = reportStep(lines.push.bind(lines), { activity: 'starting the thing', done: (result, took) => `${result} in ${took}` }, () => new Promise<string>((resolve) => (finish = resolve)));

    await jest.advanceTimersByTimeAsync(2 * STILL_RUNNING_EVERY_MS + 500);
    finish('the thing ready');
    await step;

    expect(lines).toEqual(['starting the thing…', 'still starting the thing, 5.0 s so far…', 'still starting the thing, 10.0 s so far…', 'the thing ready in 10.5 s']);
  });

  it('says nothing more once a step fails: the error is the last word', async () => {
    const lines: string[] = [];

    await expect(reportStep(lines.push.bind(lines), { activity: 'starting the thing', done: () => 'done' }, () => Promise.reject(new Error('no')))).rejects.toThrow('no');

    expect(lines).toEqual(['starting the thing…']);
  });
});
