/**
 * The trade sound player (src/services/sounds.ts): one oscillator for "opened", two rising for
 * "won", two falling for "lost", each with a fade in and out; nothing at all while the page is
 * hidden, and silence (no throw) where Web Audio is missing or refuses to start.
 */
import { describe, expect, it } from 'vitest';
import { createSoundPlayer, SOUND_NOTES } from '../../src/services/sounds';

function fakeWindow(visibility: 'visible' | 'hidden', fail = false) {
  const made: { frequency: number; type: string; ramps: number }[] = [];
  let contexts = 0;
  class FakeContext {
    currentTime = 0;
    state = 'running';
    destination = {};
    constructor() {
      if (fail) throw new Error('not allowed');
      contexts += 1;
    }
    createOscillator() {
      const osc = {
        type: '',
        frequency: { setValueAtTime: (f: number) => made.push({ frequency: f, type: osc.type, ramps: 0 }) },
        connect: (node: unknown) => node,
        start: () => undefined,
        stop: () => undefined,
      };
      return osc;
    }
    createGain() {
      return {
        gain: {
          setValueAtTime: () => undefined,
          exponentialRampToValueAtTime: () => {
            const last = made[made.length - 1];
            if (last) last.ramps += 1;
          },
        },
        connect: (node: unknown) => node,
      };
    }
    resume() {
      return Promise.resolve();
    }
  }
  const win = { AudioContext: FakeContext, document: { visibilityState: visibility } } as unknown as Window;
  return { win, made, contexts: () => contexts };
}

describe('trade sounds', () => {
  it('plays the notes of each sound, with a fade in and out, from one AudioContext', () => {
    const { win, made, contexts } = fakeWindow('visible');
    const player = createSoundPlayer(win);
    player.play('opened');
    player.play('won');
    player.play('lost');
    expect(made.map((n) => n.frequency)).toEqual([880, 660, 830, 440, 370]);
    expect(made.every((n) => n.ramps === 2)).toBe(true);
    expect(contexts()).toBe(1);
    expect(SOUND_NOTES.won[1]!.frequency).toBeGreaterThan(SOUND_NOTES.won[0]!.frequency);
    expect(SOUND_NOTES.lost[1]!.frequency).toBeLessThan(SOUND_NOTES.lost[0]!.frequency);
  });

  it('is silent while the page is hidden', () => {
    const { win, made, contexts } = fakeWindow('hidden');
    createSoundPlayer(win).play('won');
    expect(made).toEqual([]);
    expect(contexts()).toBe(0);
  });

  it('is silent, never failing, without Web Audio or when it is refused', () => {
    expect(() => createSoundPlayer(null).play('lost')).not.toThrow();
    expect(() => createSoundPlayer({ document: { visibilityState: 'visible' } } as unknown as Window).play('lost')).not.toThrow();
    const refused = fakeWindow('visible', true);
    expect(() => createSoundPlayer(refused.win).play('opened')).not.toThrow();
    expect(refused.made).toEqual([]);
  });
});
