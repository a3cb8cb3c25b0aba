/**
 * Trade sounds with Web Audio (issue 16 item 5): short synthesised tones, no audio files. Each
 * sound is one or two oscillator notes with a fast attack and an exponential decay (under half a
 * second, quiet: peak gain 0.12), so it informs without startling:
 *   opened  one soft click-like blip (880 Hz, triangle, 90 ms)
 *   won     a rising major third (660 -> 830 Hz, sine)
 *   lost    a falling minor third (440 -> 370 Hz, sine)
 * The machine decides WHETHER to play (sounds on, page visible); this player checks visibility
 * once more (a hidden tab never plays) and creates its AudioContext on first use. A browser
 * that blocks audio until a gesture stays silent; that is never an error.
 */
import type { TradeSound } from '../../machines/trader-prefs/trader-prefs.machine';

interface Note {
  frequency: number;
  start: number;
  duration: number;
  type: OscillatorType;
}

export const SOUND_NOTES: Record<TradeSound, Note[]> = {
  opened: [{ frequency: 880, start: 0, duration: 0.09, type: 'triangle' }],
  won: [
    { frequency: 660, start: 0, duration: 0.12, type: 'sine' },
    { frequency: 830, start: 0.11, duration: 0.22, type: 'sine' },
  ],
  lost: [
    { frequency: 440, start: 0, duration: 0.14, type: 'sine' },
    { frequency: 370, start: 0.13, duration: 0.26, type: 'sine' },
  ],
};

const PEAK_GAIN = 0.12;

type AudioContextConstructor = new () => AudioContext;

export interface SoundPlayer {
  play(sound: TradeSound): void;
}

export function createSoundPlayer(win: Window | null): SoundPlayer {
  let context: AudioContext | null = null;
  const Ctor: AudioContextConstructor | undefined = win
    ? ((win as unknown as { AudioContext?: AudioContextConstructor; webkitAudioContext?: AudioContextConstructor }).AudioContext ??
      (win as unknown as { webkitAudioContext?: AudioContextConstructor }).webkitAudioContext)
    : undefined;
  return {
    play(sound) {
      if (!win || !Ctor || win.document.visibilityState === 'hidden') return;
      try {
        context ??= new Ctor();
        if (context.state === 'suspended') void context.resume().catch(() => undefined);
        const now = context.currentTime;
        for (const note of SOUND_NOTES[sound]) {
          const osc = context.createOscillator();
          const gain = context.createGain();
          osc.type = note.type;
          osc.frequency.setValueAtTime(note.frequency, now + note.start);
          gain.gain.setValueAtTime(0.0001, now + note.start);
          gain.gain.exponentialRampToValueAtTime(PEAK_GAIN, now + note.start + 0.012);
          gain.gain.exponentialRampToValueAtTime(0.0001, now + note.start + note.duration);
          osc.connect(gain).connect(context.destination);
          osc.start(now + note.start);
          osc.stop(now + note.start + note.duration + 0.02);
        }
      } catch {
        // No audio here (blocked, unsupported): silence is fine.
      }
    },
  };
}
