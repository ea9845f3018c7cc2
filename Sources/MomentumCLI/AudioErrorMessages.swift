import MomentumAudio
import MomentumCore
import MomentumServices

extension ErrorMessages {
    /// The errors of rendering and writing audio, in the person's words.
    static func audioMessage(for error: any Error, catalog: StringCatalog) -> String? {
        switch error {
        case let error as AudioFormatError:
            switch error {
            case .unsupportedSampleRate(let rate): catalog.format(.errorAudioRate, ["value": "\(rate)"])
            case .unsupportedChannelCount(let count): catalog.format(.errorAudioChannels, ["value": "\(count)"])
            }
        case let error as RenderError:
            switch error {
            case .openEnded: catalog[.errorRenderOpenEnded]
            case .unknownAmbient(let id): message(for: MeditationPlanError.unknownAmbient(id), catalog: catalog)
            case .ambientFileNotRenderable(let id): catalog.format(.errorRenderAmbientFile, ["id": id])
            case .ambientVolumeOutOfRange: catalog[.errorAmbientVolume]
            }
        case let error as AudioFileError:
            switch error {
            case .folderMissing(let path): catalog.format(.errorAudioFolderMissing, ["path": path])
            case .cannotCreate(let path, let problem):
                catalog.format(.errorAudioCannotCreate, ["path": path, "reason": problem.text(catalog)])
            case .diskFull: catalog[.errorAudioDiskFull]
            case .writeFailed(let path, let problem):
                catalog.format(.errorAudioWriteFailed, ["path": path, "reason": problem.text(catalog)])
            case .tooLongForWAV: catalog[.errorAudioTooLong]
            }
        case let error as WAVError: catalog.format(.errorAudioUnreadable, ["detail": "\(error)"])
        case let error as MorseError: morseMessage(for: error, catalog: catalog)
        case let error as MorseToneError: morseMessage(for: error, catalog: catalog)
        default: nil
        }
    }
}
