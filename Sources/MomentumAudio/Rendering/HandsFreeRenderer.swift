import Foundation
import MomentumCore

/// A hands-free copy session as sound: the Morse of every item as a clean tone and each spoken
/// answer at its place in the ``HandsFreeSchedule``, streaming in blocks like every render.
///
/// ```swift
/// var session = try HandsFreeRenderer(plan: plan, speech: EspeakSpeech.installed(), format: .runStream)
/// try WAVFileWriter.render(&session, to: url)
/// ```
public struct HandsFreeRenderer: AudioSource {
    /// Speech peaks at the tone's level, so neither is louder than the other.
    public static let speechPeak = MorseRenderer.level

    public let format: AudioFormat
    public let frameCount: Int
    public let schedule: HandsFreeSchedule
    public let items: [HandsFreeItem]

    private var morse: MorseRenderer
    /// Each spoken answer at the format's rate, with its first frame.
    private let speech: [(start: Int, samples: [Float])]
    private var nextSpeech = 0
    private var position = 0

    /// Speaks every item of `plan` with `speech` (one run of the engine per item) and lays the
    /// session out. Throws the engine's error for the first item it cannot speak.
    public init(plan: HandsFreePlan, speech engine: any SpeechEngine, format: AudioFormat) throws(SpeechError) {
        let items = plan.items()
        var clips: [[Float]] = []
        for item in items {
            let spoken = try engine.speak(item.spoken, language: plan.language).trimmed()
                .resampled(to: format.sampleRate).normalized(peak: Self.speechPeak)
            clips.append(spoken.samples)
        }
        self.init(plan: plan, items: items, clips: clips, format: format)
    }

    /// The session from speech already at the format's rate, one clip per item.
    init(plan: HandsFreePlan, items: [HandsFreeItem], clips: [[Float]], format: AudioFormat) {
        let lengths = clips.map { Duration.seconds(Double($0.count) / Double(format.sampleRate)) }
        let schedule = HandsFreeSchedule(plan: plan, items: items, speechLengths: lengths)
        self.format = format
        self.schedule = schedule
        self.items = items
        morse = MorseRenderer(elements: schedule.elements, tone: plan.tone, format: format)
        speech = schedule.parts.filter { $0.kind == .speech }.map { part in
            (format.frames(at: part.start), clips[part.item])
        }
        frameCount = max(morse.frameCount, speech.last.map { $0.start + $0.samples.count } ?? 0)
    }

    public mutating func render(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let channels = format.channels
        let frames = min(buffer.count / channels, frameCount - position)
        guard frames > 0 else { return 0 }
        let block = UnsafeMutableBufferPointer(rebasing: buffer[0..<frames * channels])
        let keyed = morse.render(into: block)
        if keyed < frames {
            UnsafeMutableBufferPointer(rebasing: block[keyed * channels..<frames * channels]).update(repeating: 0)
        }
        let blockEnd = position + frames
        while nextSpeech < speech.count && speech[nextSpeech].start + speech[nextSpeech].samples.count <= position {
            nextSpeech += 1
        }
        var index = nextSpeech
        while index < speech.count && speech[index].start < blockEnd {
            let (start, samples) = speech[index]
            for frame in max(position, start)..<min(blockEnd, start + samples.count) {
                let value = samples[frame - start]
                for channel in 0..<channels { block[(frame - position) * channels + channel] += value }
            }
            index += 1
        }
        position = blockEnd
        return frames
    }
}
