import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `/api/v1/log`: the practice log — list, add by hand, edit and delete.
///
/// Each listed record carries the `day` it counts for, as the core counts it with the person's
/// `progress.time-zone` and day start, and the list names that time zone: the browser groups and
/// labels sessions by these, never by its own clock.
struct LogController {
    let log: PracticeLogService
    let progress: ProgressService
    let settings: SettingsService
    let metrics: ServerMetrics

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get(use: list)
        group.post(use: add)
        group.patch(":id", use: edit)
        group.delete(":id", use: delete)
    }

    struct Records: Encodable {
        var records: [DatedRecord]
        /// The time zone days are counted in (`progress.time-zone`, or the server's).
        var timeZone: String
    }

    /// A record with the day it counts for and its counted time in words (the core's
    /// `DurationFormatting.words`, in the request's language): the record's own fields, `day`,
    /// `countedText`, and `soundText` when the practice's sound was interrupted.
    struct DatedRecord: Encodable {
        var record: PracticeRecord
        var day: Day
        var countedText: String
        /// The core's sentences for the interruptions kept in the record's details; `nil` when none.
        var soundText: String?

        init(record: PracticeRecord, day: Day, language: Language) {
            self.record = record
            self.day = day
            countedText = DurationFormatting.words(.seconds(record.countedSeconds), language: language)
            soundText = SoundInterruption.sentences(record.soundInterruptions, catalog: .shared(for: language))
        }

        private enum CodingKeys: String, CodingKey { case day, countedText, soundText }

        func encode(to encoder: any Encoder) throws {
            try record.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(day, forKey: .day)
            try container.encode(countedText, forKey: .countedText)
            try container.encodeIfPresent(soundText, forKey: .soundText)
        }
    }

    @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Records> {
        let query = request.uri.queryParameters
        var filter = PracticeLogQuery()
        if let kind = query["kind"] {
            guard let value = PracticeKind(rawValue: String(kind)) else {
                throw APIError.invalid(
                    .errorUnknownKind,
                    [
                        "value": String(kind.prefix(20)),
                        "choices": PracticeKind.allCases.map(\.rawValue).joined(separator: ", "),
                    ])
            }
            filter.kind = value
        }
        filter.since = try query["since"].map { try Self.instant(String($0), name: "since") }
        filter.until = try query["until"].map { try Self.instant(String($0), name: "until") }
        // `?recent`: the last `PracticeRecord.recentDays` days, today included, as the server counts days.
        if query["recent"] != nil { filter.since = max(filter.since ?? .distantPast, try await progress.recentSince()) }
        let calendar = try await progress.dayCalendar()
        if let text = query["day"] {
            // The sessions of one day as the server counts it: from its day start to the next.
            // try?: a day that does not parse is answered 400 with the format a day takes.
            guard let day = try? Day(parsing: String(text)) else {
                throw APIError.badRequest(.apiDayFormat)
            }
            let (start, end) = (calendar.start(of: day), calendar.start(of: day.adding(days: 1)))
            filter.since = max(filter.since ?? start, start)
            filter.until = min(filter.until ?? end, end)
        }
        let language = try await LanguageChoice.language(for: request, settings: settings)
        let records = try await log.records(matching: filter).map {
            DatedRecord(record: $0, day: calendar.day(of: $0.start), language: language)
        }
        return JSONResponse(Records(records: records, timeZone: calendar.timeZone.identifier))
    }

    /// A record by hand: what, when it began, and how long it lasted (milliseconds).
    struct NewRecord: Decodable {
        var kind: PracticeKind
        var start: Date
        var durationMs: Int64
        var energyKilocalories: Double?
        var details: [String: String]?
    }

    @Sendable func add(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PracticeRecord> {
        let body = try await RequestBody.decode(NewRecord.self, from: request)
        let record = try await log.addRecord(
            kind: body.kind, start: body.start, length: Double(body.durationMs) / 1000,
            energyKilocalories: body.energyKilocalories, details: body.details ?? [:])
        metrics.recordSessionLogged(kind: record.kind.rawValue)
        return JSONResponse(record, status: .created)
    }

    /// The fields to change; the others stay.
    struct RecordChanges: Decodable {
        var kind: PracticeKind?
        var start: Date?
        var durationMs: Int64?
        var energyKilocalories: Double?
        var details: [String: String]?
    }

    @Sendable func edit(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PracticeRecord> {
        let original = try await record(context)
        let body = try await RequestBody.decode(RecordChanges.self, from: request)
        let edited = try await log.editRecord(
            original, kind: body.kind, start: body.start, length: body.durationMs.map { Double($0) / 1000 },
            energyKilocalories: body.energyKilocalories.map { .some($0) }, details: body.details)
        return JSONResponse(edited)
    }

    @Sendable func delete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await log.deleteRecord(try record(context))
        return Response(status: .noContent)
    }

    private func record(_ context: BasicRequestContext) async throws -> PracticeRecord {
        guard let text = context.parameters.get("id"), let id = UUID(uuidString: text) else {
            throw APIError.notFound(.apiNoRecord)
        }
        return try await log.record(idPrefix: id.uuidString)
    }

    static func instant(_ text: String, name: String) throws -> Date {
        if let date = WireDate.date(text) { return date }
        throw APIError.badRequest(.apiInstantFormat, ["name": name])
    }
}
