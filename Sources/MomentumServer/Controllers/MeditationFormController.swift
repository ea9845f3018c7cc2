import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET /api/v1/meditation/form`: what the Meditate form shows, worked out by the core — the
/// saved sit, its interval gongs in every form the core knows (off, every N minutes, a list of
/// offsets) with their labels, and each field's bounds. The browser shows this and sends the
/// chosen choice's `gongs` back unchanged, so it holds no interval rule and no bound of its own.
///
/// `?interval=25,30` reads a typed interval the way `momentum settings set meditation.interval`
/// does and answers it as the chosen choice (422 when it is not one). `?preset=ID` answers the
/// form of that saved sit instead of the quick sit (for editing it; 404 when there is none).
struct MeditationFormController {
    let settings: SettingsService
    let presets: MeditationPresetService

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("meditation/form", use: form)
    }

    /// The every-N-minutes choices the form offers besides "off" and the plan's own.
    static let everyMinutes = [1, 2, 3, 5, 10, 15, 20, 30, 60]

    struct IntervalChoice: Encodable, Equatable {
        /// The core's text form (`off`, `5`, `25,30`): what `settings set meditation.interval` reads.
        var text: String
        /// The choice in words, in the request's language ("every 5 min", "at 25, 30 min").
        var label: String
        /// The plan's form, sent back as the plan's `intervalGongs`.
        var gongs: IntervalGongs
    }

    struct Bounds: Encodable {
        var min: Int64
        var max: Int64
    }

    struct Form: Encodable {
        /// The saved sit (the core's defaults for a new person).
        var plan: MeditationPlan
        /// The choice matching `plan.intervalGongs` (or the typed `?interval=`).
        var interval: IntervalChoice
        /// Off, every N minutes, and the plan's own choice when it is none of those, in order.
        var intervalChoices: [IntervalChoice]
        /// Each number field's bounds in the unit the form shows it in.
        var bounds: [String: Bounds]
    }

    @Sendable func form(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<Form> {
        let language = try await LanguageChoice.language(for: request, settings: settings)
        let plan =
            if let preset = request.uri.queryParameters["preset"] {
                try await presets.preset(named: String(preset)).plan
            } else {
                try await settings.load().meditation
            }
        var chosen = plan.intervalGongs
        if let typed = request.uri.queryParameters["interval"] {
            guard let gongs = IntervalGongs(parsing: String(typed)) else {
                throw APIError.invalid(.apiIntervalFormat)
            }
            chosen = gongs
        }
        return JSONResponse(Self.form(plan: plan, chosen: chosen, catalog: .shared(for: language)))
    }

    static func form(plan: MeditationPlan, chosen: IntervalGongs, catalog: StringCatalog) -> Form {
        let current = choice(chosen, catalog: catalog)
        var choices =
            [choice(.off, catalog: catalog)] + everyMinutes.map { choice(.every(minutes: $0), catalog: catalog) }
        if !choices.contains(current) {
            if case .every(let minutes) = chosen {
                let index = choices.firstIndex { choice in
                    if case .every(let other) = choice.gongs { return other > minutes }
                    return false
                }
                choices.insert(current, at: index ?? choices.endIndex)
            } else {
                choices.append(current)
            }
        }
        let minute: Int64 = 60_000
        return Form(
            plan: plan, interval: current, intervalChoices: choices,
            bounds: [
                "durationMinutes": Bounds(
                    min: max(1, MeditationPlan.durationBounds.lowerBound.wholeMilliseconds / minute),
                    max: MeditationPlan.durationBounds.upperBound.wholeMilliseconds / minute),
                "countdownSeconds": Bounds(
                    min: MeditationPlan.countdownBounds.lowerBound.wholeMilliseconds / 1000,
                    max: MeditationPlan.countdownBounds.upperBound.wholeMilliseconds / 1000),
                "reflectionMinutes": Bounds(
                    min: MeditationPlan.reflectionBounds.lowerBound.wholeMilliseconds / minute,
                    max: MeditationPlan.reflectionBounds.upperBound.wholeMilliseconds / minute),
                "intervalMinutes": Bounds(
                    min: Int64(MeditationPlan.intervalMinutesBounds.lowerBound),
                    max: Int64(MeditationPlan.intervalMinutesBounds.upperBound)),
            ])
    }

    static func choice(_ gongs: IntervalGongs, catalog: StringCatalog) -> IntervalChoice {
        IntervalChoice(text: gongs.text, label: gongs.label(catalog), gongs: gongs)
    }
}
