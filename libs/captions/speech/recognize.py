"""Offline English speech recognition for generated live subtitles (PocketSphinx, its bundled en-us model).

Reads 16 kHz mono s16le PCM on stdin and writes one JSON object per line on stdout:
  {"utterance": {"start": s, "end": s, "words": [[word, start, end], ...]}}  what was said, times in
      seconds from the first sample;
  {"settled": s}  no utterance still to come starts before s (sent as it moves, about every second);
  {"done": s}     the input has ended, s seconds long.
--max-utterance N cuts an utterance that goes on past N seconds (live captions must not wait for a
pause); 0 never cuts.
"""
import argparse
import json
import sys

from pocketsphinx import Decoder, Endpointer

FRAMES_PER_SECOND = 100  # the decoder's word times are in 10 ms frames
FILLERS = {"<s>", "</s>", "<sil>"}


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def word_text(word):
    # alternate pronunciations are marked "word(2)"; noise words "[NOISE]", "++UM++"
    base = word.split("(", 1)[0]
    if base in FILLERS or base.startswith("[") or base.startswith("+"):
        return None
    return base


class Recognizer:
    def __init__(self, max_utterance):
        self.endpointer = Endpointer()
        self.decoder = Decoder(samprate=self.endpointer.sample_rate)
        self.max_utterance = max_utterance
        self.bytes_per_second = self.endpointer.sample_rate * 2
        self.utterance_start = None
        self.decoded_bytes = 0
        self.input_bytes = 0
        self.settled = 0.0

    def feed(self, frame, last):
        self.input_bytes += len(frame)
        was_in_speech = self.endpointer.in_speech
        speech = self.endpointer.end_stream(frame) if last else self.endpointer.process(frame)
        if speech is not None:
            if not was_in_speech:
                self.begin(self.endpointer.speech_start)
            self.decoder.process_raw(speech)
            self.decoded_bytes += len(speech)
            if not self.endpointer.in_speech:
                self.finish()
            elif self.max_utterance > 0 and self.decoded_bytes / self.bytes_per_second >= self.max_utterance:
                resumed_at = self.utterance_start + self.decoded_bytes / self.bytes_per_second
                self.finish()
                self.begin(resumed_at)
        elif last and self.utterance_start is not None:
            self.finish()
        self.report_settled()

    def begin(self, start):
        self.utterance_start = start
        self.decoded_bytes = 0
        self.decoder.start_utt()

    def finish(self):
        self.decoder.end_utt()
        start = self.utterance_start
        self.utterance_start = None
        words = []
        for segment in self.decoder.seg() or []:  # None when nothing was recognized
            text = word_text(segment.word)
            if text:
                words.append([text, round(start + segment.start_frame / FRAMES_PER_SECOND, 3), round(start + (segment.end_frame + 1) / FRAMES_PER_SECOND, 3)])
        if words:
            say({"utterance": {"start": words[0][1], "end": words[-1][2], "words": words}})

    def report_settled(self):
        heard = self.input_bytes / self.bytes_per_second
        # a pause is only known to be one a window later, so speech may still begin a window back
        settled = self.utterance_start if self.utterance_start is not None else max(0.0, heard - 2 * Endpointer.DEFAULT_WINDOW)
        if settled >= self.settled + 1.0:
            self.settled = settled
            say({"settled": round(settled, 3)})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-utterance", type=float, default=0.0)
    args = parser.parse_args()
    recognizer = Recognizer(args.max_utterance)
    frame_bytes = recognizer.endpointer.frame_bytes
    stream = sys.stdin.buffer
    pending = b""
    while True:
        chunk = stream.read1(65536)
        pending += chunk
        while len(pending) >= frame_bytes:
            recognizer.feed(pending[:frame_bytes], False)
            pending = pending[frame_bytes:]
        if not chunk:
            # end_stream needs a whole frame: the rest, padded with silence (a silent frame when none is left)
            recognizer.feed(pending.ljust(frame_bytes, b"\0"), True)
            break
    say({"done": round(recognizer.input_bytes / recognizer.bytes_per_second, 3)})


if __name__ == "__main__":
    main()
