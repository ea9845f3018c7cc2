import Foundation
import Hummingbird
import MomentumCore
import MomentumServices

/// `GET /reminders.ics`: the reminders as an iCalendar feed a calendar app subscribes to, planned
/// afresh on every fetch; `GET /api/v1/reminders`: the same plan as JSON, for the browser's
/// notifications. Both in `?lang=`, else the person's language, else `Accept-Language`.
struct RemindersController {
    let reminders: ReminderService
    let settings: SettingsService

    /// The calendar feed on `feed` (a feed token opens it), the plan on `api`.
    func addRoutes(feed: RouterGroup<BasicRequestContext>, api: RouterGroup<BasicRequestContext>) {
        feed.get("reminders.ics", use: self.feed)
        api.get("reminders", use: plan)
    }

    @Sendable func feed(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let language = try await LanguageChoice.language(for: request, settings: settings)
        let text = try await reminders.calendarFeed(language: language)
        var headers = HTTPFields()
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.contentDisposition] = "inline; filename=\"momentum-reminders.ics\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    struct PlanResponse: Encodable {
        var reminders: [PlannedReminder.JSONForm]
        var timeZone: String
        var plannedAt: Date
        var includesMorse: Bool
    }

    @Sendable func plan(_ request: Request, context: BasicRequestContext) async throws -> JSONResponse<PlanResponse> {
        let language = try await LanguageChoice.language(for: request, settings: settings)
        var days = ReminderPlanner.defaultHorizonDays
        if let text = request.uri.queryParameters["days"] {
            guard let value = Int(text), (1...28).contains(value) else {
                throw APIError.invalid(.apiReminderDays)
            }
            days = value
        }
        let plan = try await reminders.plan(horizonDays: days)
        return JSONResponse(
            PlanResponse(
                reminders: plan.reminders.map {
                    $0.jsonForm(in: language, quietHours: plan.quietHours, timeZone: plan.timeZone)
                },
                timeZone: plan.timeZone.identifier,
                plannedAt: plan.plannedAt, includesMorse: plan.includesMorse))
    }
}
