/// The words for import errors, shared by the terminal and the web app.
extension ImportFileError {
    /// The headline, one line naming the file; for bad rows, ``problemLines(catalog:)`` has the rest.
    public func message(path: String, catalog: StringCatalog) -> String {
        switch self {
        case .tooLarge(let bytes, let limit):
            catalog.format(
                .errorImportTooLarge,
                ["path": path, "size": String(bytes / 1_048_576), "limit": String(limit / 1_048_576)])
        case .notText: catalog.format(.errorImportNotText, ["path": path])
        case .empty: catalog.format(.errorImportEmpty, ["path": path])
        case .unrecognized(let line): catalog.format(.errorImportUnrecognized, ["path": path, "line": line])
        case .malformedCSV(.unterminatedQuote(let line)):
            catalog.format(.errorImportUnterminatedQuote, ["path": path, "line": String(line)])
        case .malformedCSV(.strayQuote(let line)):
            catalog.format(.errorImportStrayQuote, ["path": path, "line": String(line)])
        case .wrongColumns(let found):
            catalog.format(
                .errorImportWrongColumns,
                [
                    "path": path, "found": found.joined(separator: ","),
                    "ours": PracticeLogCSV.columns.joined(separator: ","),
                    "assistant": MeditationAssistantCSV.header.joined(separator: ","),
                ])
        case .unreadableJSON(let detail): catalog.format(.errorImportUnreadableJSON, ["path": path, "detail": detail])
        case .notABackup: catalog.format(.errorImportNotABackup, ["path": path])
        case .newerBackup(let version, let supported):
            catalog.format(
                .errorImportNewerBackup, ["path": path, "version": String(version), "supported": String(supported)])
        case .invalidSettings(let field, let detail):
            catalog.format(.errorImportInvalidSettings, ["path": path, "field": field, "detail": detail])
        case .invalidRows(let problems, _):
            catalog.format(
                .errorImportInvalidRows,
                [
                    "path": path,
                    "count": catalog.counted(
                        Set(problems.map(\.row)).count, one: .errorImportOneRow, many: .errorImportRows),
                ])
        }
    }

    /// One line per problem of a file with bad rows (empty for other errors).
    public func problemLines(catalog: StringCatalog) -> [String] {
        guard case .invalidRows(let problems, let inBackup) = self else { return [] }
        return problems.map { $0.message(isBackup: inBackup, catalog: catalog) }
    }
}

extension ImportProblem {
    /// `line 4, start: “2027-02-30 10:00” is not a date and time that exists …`.
    public func message(isBackup: Bool, catalog: StringCatalog) -> String {
        let place = catalog.format(isBackup ? .importWhereRecord : .importWhereLine, ["row": String(row)])
        let reason = reasonText(catalog)
        guard let field else { return catalog.format(.importProblemRow, ["where": place, "reason": reason]) }
        return catalog.format(.importProblem, ["where": place, "field": field, "reason": reason])
    }

    private func reasonText(_ catalog: StringCatalog) -> String {
        switch reason {
        case .missingValue: catalog[.importReasonMissing]
        case .unknownKind(let value):
            catalog.format(
                .importReasonUnknownKind,
                ["value": value, "choices": PracticeKind.allCases.map(\.rawValue).joined(separator: ", ")])
        case .invalidInstant(let value): catalog.format(.importReasonInvalidInstant, ["value": value])
        case .invalidNumber(let value): catalog.format(.importReasonInvalidNumber, ["value": value])
        case .invalidLength(let value): catalog.format(.importReasonInvalidLength, ["value": value])
        case .invalidID(let value): catalog.format(.importReasonInvalidID, ["value": value])
        case .invalidDetails: catalog[.importReasonInvalidDetails]
        case .invalidEnergy: catalog[.importReasonInvalidEnergy]
        case .endsBeforeItStarts: catalog[.importReasonEndsBeforeStart]
        case .longerThanADay: catalog[.importReasonLongerThanADay]
        case .negativeCountedTime: catalog[.importReasonNegative]
        case .countsMoreThanItLasted: catalog[.importReasonCountsMore]
        case .repeatedID(let value): catalog.format(.importReasonRepeatedID, ["value": value])
        case .wrongFieldCount(let expected, let found):
            catalog.format(.importReasonFieldCount, ["expected": String(expected), "found": String(found)])
        }
    }
}
