import Foundation
import MomentumCore
import MomentumStoreContract

/// What the page's keyer and sidetone need (`GET /morse/keyer`): the unit of the course's
/// character speed as the core computes it, the tone, and the keyer's modes. The page keys
/// paddles with `js/morse-keyer.js`, whose rules are ``PaddleKeyer``'s.
public struct MorseKeyerView: Sendable, Hashable, Encodable {
    public let characterWPM: Double
    /// One dit at `characterWPM`, in milliseconds.
    public let unitMilliseconds: Double
    public let toneHertz: Double
    public let riseMilliseconds: Double
    public let modes: [PaddleKeyer.Mode]

    public init(settings: MorseCourseSettings) {
        characterWPM = settings.timing.characterWPM
        unitMilliseconds = settings.timing.unit.inSeconds * 1000
        toneHertz = settings.tone.hertz
        riseMilliseconds = settings.tone.rise.inSeconds * 1000
        modes = PaddleKeyer.Mode.allCases
    }
}

extension MorseCourseService {
    /// The keyer at the course's character speed and tone.
    public func keyerView() async throws(StoreError) -> MorseKeyerView {
        MorseKeyerView(settings: try await courseSettings())
    }
}
