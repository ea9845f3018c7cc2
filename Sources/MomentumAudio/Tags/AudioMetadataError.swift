/// Why a file's metadata cannot be read: one case per cause, each naming the file.
///
/// "Truncated" and "beyond its container" are told apart by where the size lies: a top-level
/// element (an ID3v2 tag at the start, a top-level MP4 box, a RIFF chunk) that runs past the end
/// of the file means the file was cut off; an element inside a tag or box that claims more than
/// its container holds means the tag itself is lying.
public enum AudioMetadataError: Error, Equatable, Sendable {
    /// Nothing in the file looks like MP3, MP4 or WAV.
    case notAudio(fileName: String)
    /// A container we recognise but do not read (RIFF AVI, RF64, RIFX …).
    case unsupportedFormat(fileName: String, format: String)
    /// The file ends before `element` does: `element` reaches byte `neededBytes`, the file has
    /// `fileSize`.
    case truncated(fileName: String, element: String, neededBytes: Int, fileSize: Int)
    /// An element inside a tag or box claims `claimedBytes`, but its container has only
    /// `availableBytes` left.
    case sizeBeyondContainer(fileName: String, element: String, claimedBytes: Int, availableBytes: Int)
    /// An ID3v2 tag followed by no MPEG audio frames.
    case noAudioFrames(fileName: String)
    /// A required element is absent (`moov box`, `fmt chunk` …).
    case missingElement(fileName: String, element: String)
    /// A header field holds an impossible value (a zero timescale, a box smaller than its header).
    case invalidHeader(fileName: String, element: String, reason: String)
    /// The bytes could not be read at all.
    case unreadable(fileName: String, reason: String)

    /// The file the error is about.
    public var fileName: String {
        switch self {
        case .notAudio(let fileName), .noAudioFrames(let fileName): fileName
        case .unsupportedFormat(let fileName, _), .missingElement(let fileName, _), .unreadable(let fileName, _):
            fileName
        case .truncated(let fileName, _, _, _), .sizeBeyondContainer(let fileName, _, _, _),
            .invalidHeader(let fileName, _, _):
            fileName
        }
    }
}

extension AudioMetadataError: CustomStringConvertible {
    /// An English sentence for logs and the terminal; the apps localize from the case.
    public var description: String {
        switch self {
        case .notAudio(let fileName):
            "“\(fileName)” is not an MP3, M4A or WAV audio file."
        case .unsupportedFormat(let fileName, let format):
            "“\(fileName)” is \(format), which Momentum cannot read."
        case .truncated(let fileName, let element, let neededBytes, let fileSize):
            "“\(fileName)” is cut off: its \(element) reaches byte \(neededBytes), but the file has \(fileSize) bytes."
        case .sizeBeyondContainer(let fileName, let element, let claimedBytes, let availableBytes):
            "“\(fileName)” is damaged: its \(element) claims \(claimedBytes) bytes where only \(availableBytes) remain."
        case .noAudioFrames(let fileName):
            "“\(fileName)” has a tag but no MP3 audio."
        case .missingElement(let fileName, let element):
            "“\(fileName)” is damaged: it has no \(element)."
        case .invalidHeader(let fileName, let element, let reason):
            "“\(fileName)” is damaged: its \(element) is invalid (\(reason))."
        case .unreadable(let fileName, let reason):
            "“\(fileName)” could not be read: \(reason)."
        }
    }
}
