/// Why a QSO cannot start or cannot take a transmission: one case per cause.
///
/// A transmission that is wrong or incomplete is not an error: the station asks for a repeat
/// (see ``QSOReply``).
public enum QSOError: Error, Equatable, Sendable {
    /// No call sign of the person's is set (none, or only whitespace): a contact needs one.
    case noOwnCallSign
    /// The person's call sign breaks a rule of ``CallSign``.
    case invalidOwnCallSign(CallSignError)
    /// The virtual station given has the person's own call sign.
    case stationHasOwnCallSign(CallSign)
    /// The contact is done; start a new one.
    case contactIsOver
    /// More than ``QSO/maximumTransmissionLength`` characters in one transmission.
    case transmissionTooLong(characterCount: Int)
}
