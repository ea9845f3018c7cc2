import Foundation
import MomentumCore
import MomentumStoreContract

/// The practice log: listing, and adding, editing and deleting records by hand.
public struct PracticeLogService: Sendable {
    private let repository: any PracticeLogRepository
    private let now: @Sendable () -> Date
    private let makeID: @Sendable () -> UUID
    private let device: String

    /// The longest a single record may last: anything longer is a typing mistake.
    public static let maximumLength = PracticeRecord.maximumLength

    public init(
        repository: any PracticeLogRepository, now: @escaping @Sendable () -> Date,
        makeID: @escaping @Sendable () -> UUID, device: String
    ) {
        self.repository = repository
        self.now = now
        self.makeID = makeID
        self.device = device
    }

    /// Records matching `query`, oldest first.
    public func records(matching query: PracticeLogQuery = PracticeLogQuery()) async throws(StoreError)
        -> [PracticeRecord]
    {
        try await repository.practiceRecords(matching: query)
    }

    /// The newest `limit` records matching `query` (every one when `limit` is `nil`), newest
    /// first, with how many matched and how long they lasted together: what `momentum log` shows
    /// of a long history.
    public func newest(_ limit: Int?, matching query: PracticeLogQuery) async throws(StoreError) -> LogPage {
        let all = try await repository.practiceRecords(matching: query)
        let shown = all.suffix(max(0, min(limit ?? all.count, all.count)))
        return LogPage(
            records: shown.reversed(), matched: all.count,
            matchedSeconds: all.reduce(0) { $0 + $1.countedSeconds })
    }

    /// The record `id` starting within `range`, if the log holds it: how a practice reported from
    /// a device is found when it is sent again (its record has the report's id, and starts between
    /// the practice's start and end).
    public func record(id: UUID, startingWithin range: ClosedRange<Date>) async throws(StoreError) -> PracticeRecord? {
        let query = PracticeLogQuery(since: range.lowerBound, until: range.upperBound.addingTimeInterval(0.001))
        return try await repository.practiceRecords(matching: query).first { $0.id == id }
    }

    /// The record whose id starts with `prefix` (at least 4 characters, unambiguous).
    public func record(idPrefix prefix: String) async throws(PracticeLogError) -> PracticeRecord {
        guard prefix.count >= IDPrefix.minimumLength else { throw .idTooShort(prefix) }
        let records: [PracticeRecord]
        do {
            records = try await repository.practiceRecords(matching: PracticeLogQuery())
        } catch {
            throw .store(error)
        }
        do {
            return try IDPrefix.find(prefix, in: records, id: \.id)
        } catch .tooShort {
            throw .idTooShort(prefix)
        } catch .notFound {
            throw .notFound(prefix)
        } catch {
            throw .ambiguous(prefix)
        }
    }

    /// Adds a record by hand (a sit away from the app): `length` counted from `start`.
    @discardableResult
    public func addRecord(
        kind: PracticeKind, start: Date, length: TimeInterval, energyKilocalories: Double? = nil,
        details: [String: String] = [:]
    ) async throws(PracticeLogError) -> PracticeRecord {
        let record = try Self.validated(
            id: makeID(), kind: kind, start: start, length: length, energyKilocalories: energyKilocalories,
            details: details, device: device, now: now())
        do {
            try await repository.savePracticeRecord(record, at: now())
        } catch {
            throw .store(error)
        }
        return record
    }

    /// Replaces a record's fields, keeping its id and device.
    @discardableResult
    public func editRecord(
        _ original: PracticeRecord, kind: PracticeKind? = nil, start: Date? = nil, length: TimeInterval? = nil,
        energyKilocalories: Double?? = nil, details: [String: String]? = nil
    ) async throws(PracticeLogError) -> PracticeRecord {
        let record = try Self.validated(
            id: original.id, kind: kind ?? original.kind, start: start ?? original.start,
            length: length ?? Double(original.countedSeconds),
            energyKilocalories: energyKilocalories ?? original.energyKilocalories,
            details: details ?? original.details, device: original.device, now: now())
        do {
            try await repository.savePracticeRecord(record, at: now())
        } catch {
            throw .store(error)
        }
        return record
    }

    /// Deletes a record.
    public func deleteRecord(_ record: PracticeRecord) async throws(PracticeLogError) {
        do {
            guard try await repository.deletePracticeRecord(id: record.id, at: now()) else {
                throw PracticeLogError.notFound(record.id.uuidString)
            }
        } catch let error as PracticeLogError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database(message: "\(error)"))
        }
    }

    static func validated(
        id: UUID, kind: PracticeKind, start: Date, length: TimeInterval, energyKilocalories: Double?,
        details: [String: String], device: String, now: Date
    ) throws(PracticeLogError) -> PracticeRecord {
        guard length.isFinite, length > 0 else { throw .lengthNotPositive }
        guard length <= maximumLength else { throw .lengthTooLong }
        if let note = details["note"], note.count > PracticeRecord.maximumNoteLength { throw .noteTooLong }
        do {
            let window = InstantWindow.record(now: now)
            try window.check(start, field: "start")
            try window.check(start.addingTimeInterval(length), field: "end")
        } catch {
            throw .instant(error)
        }
        do {
            for (key, value) in details.sorted(by: { $0.key < $1.key }) {
                try TextInput.check(key, field: "details")
                try TextInput.check(value, field: "details.\(key)", lines: .multiple)
            }
        } catch {
            throw .text(error)
        }
        do {
            return try PracticeRecord(
                id: id, kind: kind, start: start, end: start.addingTimeInterval(length),
                countedSeconds: Int(length.rounded()), energyKilocalories: energyKilocalories, details: details,
                device: device)
        } catch {
            throw .invalidRecord(error)
        }
    }
}

/// Why a record could not be added, found, edited or deleted. Nothing is changed in any case.
public enum PracticeLogError: Error, Equatable, Sendable {
    case lengthNotPositive
    case lengthTooLong
    /// The note is longer than ``PracticeRecord/maximumNoteLength``.
    case noteTooLong
    case invalidRecord(PracticeRecordError)
    /// The start or end lies outside ``InstantWindow/record(now:)``.
    case instant(InstantWindowError)
    /// A detail holds a control character.
    case text(TextInputError)
    case idTooShort(String)
    case notFound(String)
    case ambiguous(String)
    case store(StoreError)
}

/// A part of the log: the records shown, newest first, and what matched altogether.
public struct LogPage: Sendable, Equatable {
    /// Newest first.
    public var records: [PracticeRecord]
    /// How many records matched the query (shown or not).
    public var matched: Int
    /// The counted seconds of every matching record.
    public var matchedSeconds: Int

    /// Whether some matching records are not shown.
    public var isCut: Bool { records.count < matched }
}
