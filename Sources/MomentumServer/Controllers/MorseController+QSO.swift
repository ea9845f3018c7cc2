import Foundation
import Hummingbird
import MomentumAudio
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
    /// The band the station is heard on (noise, fading, another station, its chirp and fist).
    let conditions: MorseBandConditions.Preset
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
        conditions: MorseBandConditions.Preset = .clean, at instant: Date
    ) throws(QSOError) {
        var generator = SeededRandomNumberGenerator(seed: seed)
        qso = try QSO(style: style, mode: mode, ownCallSign: ownCallSign, using: &generator)
        self.id = id
        self.conditions = conditions
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

    /// The station's latest transmission as keyed at its speed (slower after a QRS), with the
    /// seed of its sound on the band; `nil` before the station has sent anything.
    var stationKeying: (text: String, elements: [MorseElement], timing: MorseTiming, seed: UInt64)? {
        guard let line = qso.transcript.last(where: { $0.sender == .station }) else { return nil }
        let timing = qso.stationTiming(from: settings.timing)
        // try?: the station's line is Momentum's own text; one with nothing left to key is shown
        // without sound, its text still on screen.
        let elements = (try? MorseKeyer(timing: timing).keying(line.text, skippingUnencodable: true))?.elements ?? []
        // Each transmission its own noise and hand: the contact's id and the turn.
        let seed = id.exchangeSeed ^ UInt64(qso.transcript.count)
        return (line.text, elements, timing, seed)
    }

    /// The station's latest transmission as its sender keys it: on a band with a human sender,
    /// by that sender's hand — the elements its sound (``BandConditionsRenderer``) is made of, so a
    /// page that schedules them and one that plays the sound hear the same rhythm.
    var stationElements: [MorseElement] {
        guard let keying = stationKeying else { return [] }
        return MorseBandConditions.preset(conditions).fist.keyed(
            keying.elements, unit: keying.timing.unit, seed: BandConditionsRenderer.fistSeed(keying.seed))
    }
}

extension UUID {
    /// A seed from an exchange's id (a contact's, a training's): its first and last bytes, each
    /// spread over 64 bits. Turns of the exchange add their number to it.
    var exchangeSeed: UInt64 { uuid.0.spreadSeed ^ uuid.15.spreadSeed >> 1 }
}

extension UInt8 {
    /// A seed from one byte of an id, spread over 64 bits.
    fileprivate var spreadSeed: UInt64 { UInt64(self) &* 0x9E37_79B9_7F4A_7C15 }
}

extension MorseController {
    struct ContactBody: Decodable {
        var style: QSOStyle?
        var mode: QSOMode?
        /// The person's call sign for this contact; default the one in the settings.
        var callSign: String?
        var seed: UInt64?
        /// The band: clean (the default), average-evening, contest or weak-dx.
        var conditions: MorseBandConditions.Preset?
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
            seed: body.seed ?? UInt64.random(in: .min ... .max), settings: try morse.courseSettings(),
            conditions: body.conditions ?? .clean, at: now())
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

    /// `GET /morse/qso/{id}/station.wav`: the station's latest transmission as heard on the
    /// contact's band — noise, fading, the other station, its chirp and fist — as WAV (22.05 kHz
    /// mono), made by the renderer `momentum morse render --conditions` uses. A clean band's
    /// contact has none (404): the page keys its elements itself.
    @Sendable func stationSound(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let contact = try await contacts.value(id: sessionID(context, unknown: .apiNoContact))
        guard contact.conditions != .clean, let keying = contact.stationKeying else {
            throw APIError.notFound(.apiNoContact)
        }
        return try Self.bandSound(
            elements: keying.elements, timing: keying.timing, tone: contact.settings.tone,
            conditions: contact.conditions, seed: keying.seed)
    }

    /// `GET /morse/sessions/{id}/item.wav`: the receive item waiting for an answer as heard on the
    /// session's band, as WAV (22.05 kHz mono); 404 on a clean band or with no item out. The
    /// address the session gives carries the item's number (`?item=`), so a cache never hands
    /// out an earlier item's sound.
    @Sendable func itemSound(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let training = try await registry.value(id: sessionID(context, unknown: .apiNoMorseSession))
        guard let band = training.bandItem else { throw APIError.notFound(.apiNoMorseSession) }
        return try Self.bandSound(
            elements: training.settings.keyer.elements(forWord: training.item?.symbols ?? []),
            timing: training.settings.timing, tone: training.settings.tone, conditions: training.conditions,
            seed: band.seed)
    }

    /// Morse `elements` at `timing` on the band `conditions`, made by the renderer
    /// `momentum morse render --conditions` uses, as a WAV response a page may keep for an hour
    /// (its address names the turn or item).
    private static func bandSound(
        elements: [MorseElement], timing: MorseTiming, tone: MorseTone, conditions: MorseBandConditions.Preset,
        seed: UInt64
    ) throws -> Response {
        let format = AudioFormat.runStream
        var renderer = try BandConditionsRenderer(
            elements: elements, timing: timing, tone: tone, conditions: .preset(conditions), format: format,
            seed: seed)
        let data = try WAVFile.encode(samples: renderer.renderAll(), format: format)
        var headers = HTTPFields()
        headers[.contentType] = "audio/wav"
        headers[.cacheControl] = "private, max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
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
        var conditions: MorseBandConditions.Preset

        struct Transmission: Encodable {
            var text: String
            var elements: [Element]
            /// Where the transmission's sound under the band's conditions is; absent on a clean band.
            var audio: String?
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
            stationWPM = qso.stationTiming(from: contact.settings.timing).characterWPM
            conditions = contact.conditions
            lastReply = contact.lastReply.map { reply in
                Reply(
                    advanced: reply.advanced, missing: reply.missing.map(part),
                    // An answered request needs no hint: the person asked, and the station answered.
                    hint: reply.missing.isEmpty || reply.request != nil
                        ? nil : ErrorMessages.missingHint(reply.missing, catalog: catalog),
                    ignoredCharacters: reply.ignoredCharacters, request: reply.request)
            }
            tone = Tone(hertz: contact.settings.tone.hertz, riseMs: milliseconds(contact.settings.tone.rise))
            station = contact.stationKeying.map { keying in
                Transmission(
                    text: keying.text,
                    elements: contact.stationElements.map(Element.init),
                    // On a band, the sound is the server's: noise, fading and the other station.
                    audio: contact.conditions == .clean
                        ? nil
                        : "/api/v1/morse/qso/\(contact.id.uuidString.lowercased())/station.wav?turn=\(qso.transcript.count)"
                )
            }
        }
    }
}
