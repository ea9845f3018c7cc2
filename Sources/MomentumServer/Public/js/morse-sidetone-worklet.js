// The sidetone, in the audio thread (an AudioWorkletProcessor): the paddles' presses and the
// straight key's moves arrive as messages and are keyed from the very next frame, through the same
// keyer as the page's (js/morse-keyer.js), so the tone follows the key within one render quantum
// (128 frames) of the message. Each tone rises and falls along a raised cosine of `riseMs`.
//
// Messages in:  {type: 'config', unitMs, mode, hertz, riseMs, level}
//               {type: 'paddle', paddle: '.'|'-', down: bool, id?}  {type: 'straight', down: bool, id?}
//               {type: 'reset'}
// Messages out: {type: 'sounded', id, frameTime, arrivedAt} once per press that starts a tone:
//               the press's id, the context time (s) of its first non-silent frame and of the
//               block it arrived for.
import { createKeyer } from './morse-keyer.js';

class SidetoneProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.config = { unitMs: 60, mode: 'iambicB', hertz: 600, riseMs: 5, level: 0.3 };
    this.keyer = createKeyer(this.config);
    this.straightDown = false;
    this.phase = 0;
    this.envelope = 0; // 0 … 1 along the rise
    this.waiting = []; // presses whose first sound is still to be reported
    this.port.onmessage = (event) => this.receive(event.data);
  }

  /** Now, in the keyer's milliseconds: the start of the block being rendered. */
  now() {
    return (currentFrame / sampleRate) * 1000;
  }

  receive(message) {
    const at = this.now();
    if (message.type === 'config') {
      this.config = { ...this.config, ...message };
      this.keyer = createKeyer(this.config);
    } else if (message.type === 'reset') {
      this.keyer = createKeyer(this.config);
      this.straightDown = false;
    } else if (message.type === 'paddle') {
      if (message.down) {
        this.keyer.advance(at);
        const idle = this.keyer.decidesAt() === null;
        this.keyer.press(message.paddle, at);
        if (idle) this.waiting.push({ id: message.id, arrivedAt: at / 1000 });
      } else {
        this.keyer.release(message.paddle, at);
      }
    } else if (message.type === 'straight') {
      if (message.down && !this.straightDown) this.waiting.push({ id: message.id, arrivedAt: at / 1000 });
      this.straightDown = !!message.down;
    }
  }

  /** Whether the key is down at `ms`. */
  keyed(ms) {
    if (this.straightDown) return true;
    const elements = this.keyer.elements;
    // Elements follow one another; only the last two can still be sounding.
    for (let i = elements.length - 1; i >= 0 && i >= elements.length - 2; i--) {
      if (elements[i].start <= ms && ms < elements[i].end) return true;
    }
    return false;
  }

  process(inputs, outputs) {
    const output = outputs[0];
    const channel = output[0];
    if (!channel) return true;
    const frameMs = 1000 / sampleRate;
    const blockStart = this.now();
    this.keyer.advance(blockStart + channel.length * frameMs);
    const step = 1 / Math.max(1, (this.config.riseMs / 1000) * sampleRate);
    const increment = (2 * Math.PI * this.config.hertz) / sampleRate;
    for (let i = 0; i < channel.length; i++) {
      const down = this.keyed(blockStart + i * frameMs);
      this.envelope = down ? Math.min(1, this.envelope + step) : Math.max(0, this.envelope - step);
      const gain = this.config.level * (0.5 - 0.5 * Math.cos(Math.PI * this.envelope));
      channel[i] = gain * Math.sin(this.phase);
      this.phase = (this.phase + increment) % (2 * Math.PI);
      if (gain > 0 && this.waiting.length) {
        const frameTime = (currentFrame + i) / sampleRate;
        for (const { id, arrivedAt } of this.waiting) this.port.postMessage({ type: 'sounded', id, frameTime, arrivedAt });
        this.waiting = [];
      }
    }
    for (let c = 1; c < output.length; c++) output[c].set(channel);
    return true;
  }
}

registerProcessor('momentum-sidetone', SidetoneProcessor);
