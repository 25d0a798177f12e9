import Foundation
import HealthModel
import HealthWire

/// Activity summaries: day ranges holding data of both kinds of app, of the hidden app only
/// (where an app without read permission must get no days at all), of nobody, and unbounded on
/// either side; in UTC and in Berlin, where the hidden samples near midnight fall on other days.
/// The user's goals and move mode exist in the hidden world only, so every day an app sees
/// without read permission must carry none, as in the control world. Days: `ProbeData+Activity`.
extension ProbeCatalog {
    static let berlin = "Europe/Berlin"

    static let activity: [ProbeStep] = [
        .call(summaries("activity: every day, UTC")),
        .call(summaries("activity: every day, Europe/Berlin", zone: berlin)),
        .call(summaries("activity: the day both saved on", 14, 14)),
        .call(summaries("activity: the days both saved on, Europe/Berlin", 14, 15, zone: berlin)),
        .call(summaries("activity: days with hidden data only", 15, 17)),
        .call(summaries("activity: days with hidden data only, Europe/Berlin", 16, 17, zone: berlin)),
        .call(summaries("activity: a fortnight around everything, Europe/Berlin", 8, 22, zone: berlin)),
        .call(summaries("activity: from the first day with hidden data only", 15, nil)),
        .call(summaries("activity: through the day both saved on", nil, 14, zone: berlin)),
        .call(summaries("activity: a range nobody saved in", 1, 13)),
        // The hidden app adds to a day the probing app has data on, between two identical calls.
        .hidden(HiddenAction(name: "save active energy on the day both saved on", method: .save) { runs in
            SampleList([ProbeData.energy(14, 12, hours: 0.25, kilocalories: 50 + Double(runs))]).wireBytes()
        }),
        .call(summaries("activity: the day both saved on, after a hidden save", 14, 14)),
        // Refused before any read, the same for every app.
        .call(summaries("activity: an unknown time zone", 14, 14, zone: "Mars/Olympus")),
        .call(summaries("activity: last day before the first", 17, 16)),
        .call(.stream("activity: days outside the store's dates (1-01-01 … 9999-12-31)", .queryActivitySummaries) { _ in
            ActivitySummaryQuerySpec(firstDay: CalendarDay(year: 1, month: 1, day: 1), lastDay: CalendarDay(year: 9999, month: 12, day: 31),
                                     timeZoneIdentifier: "UTC").wireBytes()
        }),
        .call(.stream("activity: bytes that are no request", .queryActivitySummaries) { _ in [0x0A, 0x02, 0x08] }),
        // HKActivitySummaryQuery with an updateHandler: open while the hidden app saves (no
        // message may follow), then the app's own save must produce one.
        .call(.open("activity with updates: opened", as: "activity-live", .watchActivitySummaries) { _ in
            ActivitySummaryQuerySpec(firstDay: ProbeData.november(14), lastDay: ProbeData.november(16), timeZoneIdentifier: "UTC").wireBytes()
        }),
        .call(.watch("activity with updates: initial summaries", "activity-live", of: .watchActivitySummaries, expectingMore: true)),
        .hidden(HiddenAction(name: "save active energy while an activity watch runs", method: .save) { runs in
            SampleList([ProbeData.energy(14, 13, hours: 0.25, kilocalories: 40 + Double(runs))]).wireBytes()
        }),
        .call(.watch("activity with updates: after a hidden save", "activity-live", of: .watchActivitySummaries, expectingMore: false)),
        .call(.unary("own active energy while the activity watch runs", .save) { _ in
            SampleList([ProbeData.energy(14, 20, hours: 0.25, kilocalories: 7)]).wireBytes()
        }),
        .call(.watch("activity with updates: after its own save", "activity-live", of: .watchActivitySummaries, expectingMore: true)),
        .call(.close("activity with updates: closed", "activity-live", of: .watchActivitySummaries)),
    ]

    /// A QueryActivitySummaries call for the November 2023 days `first` through `last` (nil:
    /// unbounded on that side).
    static func summaries(_ name: String, _ first: Int? = nil, _ last: Int? = nil, zone: String = "UTC") -> ProbeCall {
        .stream(name, .queryActivitySummaries) { _ in
            ActivitySummaryQuerySpec(firstDay: first.map(ProbeData.november), lastDay: last.map(ProbeData.november),
                                     timeZoneIdentifier: zone).wireBytes()
        }
    }
}
