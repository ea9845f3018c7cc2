import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// A QSO practised in the browser: the core's contact, the sound settings it is keyed with, and
/// the station's last transmission with the person's last reply.
///
/// It is made and changed only by the initializer and ``send(_:at:)``, which note what they were
/// given: the stored form (``Stored``) replays them to rebuild the contact on another server.
struct MorseContact: Expiring {
    let id: UUID
    private(set) var qso: QSO
    let settings: MorseCourseSettings
    /// The seed that drew the station, and the call sign the contact was asked for with.
    let seed: UInt64
    let requestedCallSign: String?
    let startedAt: Date
    private(set) var lastReply: QSOReply?
    private(set) var lastActivity: Date
    /// The person's transmissions the station took, in order.
    private(set) var transmissions: [Transmission] = []

    struct Transmission: Sendable, Equatable, Codable {
        var text: String
        var at: Date
    }

    /// A contact signing `ownCallSign` with a station drawn from `seed`, started at `instant`.
    init(
        id: UUID, style: QSOStyle, mode: QSOMode, ownCallSign: String?, seed: UInt64, settings: MorseCourseSettings,
        at instant: Date
    ) throws(QSOError) {
        var generator = SeededRandomNumberGenerator(seed: seed)
        qso = try QSO(style: style, mode: mode, ownCallSign: ownCallSign, using: &generator)
        self.id = id
        self.settings = settings
        self.seed = seed
        requestedCallSign = ownCallSign
        startedAt = instant
        lastActivity = instant
    }

    /// The person's transmission `text` at `instant`: the station replies (or asks for a repeat).
    /// A contact that is over takes nothing more (409).
    mutating func send(_ text: String, at instant: Date) throws {
        guard qso.phase != .done else { throw APIError.conflict(.apiContactOver) }
        lastReply = try qso.receive(text)
        lastActivity = instant
        transmissions.append(Transmission(text: text, at: instant))
    }
}

extension MorseController {
    struct ContactBody: Decodable {
        var style: QSOStyle?
        var mode: QSOMode?
        /// The person's call sign for this contact; default the one in the settings.
        var callSign: String?
        var seed: UInt64?
    }

    struct SendBody: Decodable {
        var text: String
    }

    struct CallSignBody: Codable {
        var callSign: String?

        /// `null` while none is set, so the key is always there.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(["callSign": callSign])
        }
    }

    /// `GET /morse/call-sign`: `{"callSign": "DL1ABC"}`, or `null` while none is set.
    @Sendable func callSign(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<CallSignBody>
    {
        JSONResponse(CallSignBody(callSign: try await morse.callSign()?.text))
    }

    /// `PUT /morse/call-sign {"callSign": "dl1abc"}` keeps it (upper case); `null` or blank clears
    /// it. One that is no call sign changes nothing.
    @Sendable func saveCallSign(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<CallSignBody>
    {
        let body = try await RequestBody.decode(CallSignBody.self, from: request)
        let text = body.callSign?.trimmingCharacters(in: .whitespaces) ?? ""
        try await morse.saveCallSign(text.isEmpty ? nil : CallSign(text))
        return await JSONResponse(CallSignBody(callSign: try morse.callSign()?.text))
    }

    /// `POST /morse/qso`: a contact with a virtual station drawn from the seed. When the person
    /// answers, the station's CQ is the first thing to play.
    @Sendable func startContact(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Contact>
    {
        let body = try await RequestBody.decode(ContactBody.self, from: request, orEmpty: ContactBody())
        let callSign = if let given = body.callSign { given } else { try await morse.callSign()?.text }
        let contact = try await MorseContact(
            id: makeID(), style: body.style ?? .firstContact, mode: body.mode ?? .call, ownCallSign: callSign,
            seed: body.seed ?? UInt64.random(in: .min ... .max), settings: try morse.courseSettings(), at: now())
        try await contacts.add(contact)
        return JSONResponse(MorseWire.Contact(contact, catalog: Self.catalog(for: request)), status: .created)
    }

    @Sendable func showContact(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Contact>
    {
        let contact = try await contacts.value(id: sessionID(context, unknown: .apiNoContact))
        return JSONResponse(MorseWire.Contact(contact, catalog: Self.catalog(for: request)))
    }

    /// `POST /morse/qso/{id}/send {"text": "…"}`: the person's transmission; the station replies
    /// (or asks for a repeat, naming what was missing). A refused text changes nothing.
    @Sendable func send(_ request: Request, context: BasicRequestContext) async throws
        -> JSONResponse<MorseWire.Contact>
    {
        let id = try sessionID(context, unknown: .apiNoContact)
        let body = try await RequestBody.decode(SendBody.self, from: request)
        let instant = now()
        let contact = try await contacts.update(id: id) { contact in
            try contact.send(body.text, at: instant)
            return contact
        }
        return JSONResponse(MorseWire.Contact(contact, catalog: Self.catalog(for: request)))
    }

    /// Hints and element names in the language the browser shows (it sends `Accept-Language`).
    static func catalog(for request: Request) -> StringCatalog {
        StringCatalog.shared(for: LanguageChoice.accepted(by: request) ?? .english)
    }
}

extension MorseWire {
    /// A contact as the browser plays and shows it. The station's details are not in it: the
    /// person learns them by copying its transmissions.
    struct Contact: Encodable {
        struct Line: Encodable {
            var sender: QSOLine.Sender
            var text: String
        }
        struct Part: Encodable {
            var element: QSOElement
            var name: String
        }
        struct Reply: Encodable {
            var advanced: Bool
            var missing: [Part]
            var hint: String?
            var ignoredCharacters: [String]
            /// What the person asked (`again`, `slower` …) that the station answered.
            var request: QSORequest?
        }
        var id: String
        var style: QSOStyle
        var mode: QSOMode
        var ownCallSign: String
        var phase: QSOPhase
        var isDone: Bool
        /// What the person sends next, by name (for hints).
        var expected: [Part]
        var transcript: [Line]
        /// The station's latest transmission, to play: its text and the keyer's elements.
        var station: Transmission?
        var lastReply: Reply?
        var tone: Tone
        /// The station's character speed: the course's, lower after a `QRS`.
        var stationWPM: Double

        struct Transmission: Encodable {
            var text: String
            var elements: [Element]
        }

        init(_ contact: MorseContact, catalog: StringCatalog) {
            let qso = contact.qso
            id = contact.id.uuidString.lowercased()
            style = qso.style
            mode = qso.mode
            ownCallSign = qso.ownCallSign.text
            phase = qso.phase
            isDone = qso.phase == .done
            let part = { (element: QSOElement) in
                Part(element: element, name: ErrorMessages.name(of: element, catalog: catalog))
            }
            expected = qso.phase == .done ? [] : qso.expected.map(part)
            transcript = qso.transcript.map { Line(sender: $0.sender, text: $0.text) }
            // Slower after each QRS the person sent.
            let keyer = MorseKeyer(timing: qso.stationTiming(from: contact.settings.timing))
            stationWPM = keyer.timing.characterWPM
            station = qso.transcript.last(where: { $0.sender == .station }).map { line in
                // try?: the station's line is Momentum's own text; one with nothing left to key
                // is shown without sound, its text still on screen.
                let elements = (try? keyer.keying(line.text, skippingUnencodable: true))?.elements ?? []
                return Transmission(
                    text: line.text, elements: elements.map { Element(on: $0.isKeyDown, ms: milliseconds($0.duration)) }
                )
            }
            lastReply = contact.lastReply.map { reply in
                Reply(
                    advanced: reply.advanced, missing: reply.missing.map(part),
                    // An answered request needs no hint: the person asked, and the station answered.
                    hint: reply.missing.isEmpty || reply.request != nil
                        ? nil : ErrorMessages.missingHint(reply.missing, catalog: catalog),
                    ignoredCharacters: reply.ignoredCharacters, request: reply.request)
            }
            tone = Tone(hertz: contact.settings.tone.hertz, riseMs: milliseconds(contact.settings.tone.rise))
        }
    }
}
