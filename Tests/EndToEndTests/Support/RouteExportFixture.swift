import Foundation

/// An Apple Health export with two outdoor workouts and their routes as inline `Location`
/// elements, shaped as real ones are: a walk around a park (a loop, ending near its start) and
/// a run out along a river and back a little to the north (a long, thin track). Points are one
/// every 20 seconds, in time order, inside their workout. The active energy of each (one in kJ)
/// gives the report a daily-totals chart.
enum RouteExportFixture {
    struct Workout {
        var activity: String
        var start: String
        var end: String
        var points: [(latitude: Double, longitude: Double)]
    }

    /// A loop of 40 points, about 600 m across, near the Tiergarten in Berlin.
    static let walk = Workout(
        activity: "HKWorkoutActivityTypeWalking", start: "2024-05-02 07:00:00 +0200", end: "2024-05-02 07:20:00 +0200",
        points: (0..<40).map { index in
            let angle = Double(index) / 40 * 2 * .pi * 0.95
            return (52.5145 + 0.0027 * sin(angle), 13.3501 + 0.0044 * cos(angle) + 0.0006 * sin(3 * angle))
        })

    /// 60 points east along the Spree, then back on the other bank: about 2.6 km by 0.3 km.
    static let run = Workout(
        activity: "HKWorkoutActivityTypeRunning", start: "2024-05-03 18:00:00 +0200", end: "2024-05-03 18:25:00 +0200",
        points: (0..<60).map { index in
            let out = index < 30
            let step = Double(out ? index : 59 - index) / 29
            return (52.5190 + 0.0012 * sin(step * 3) + (out ? 0 : 0.0025), 13.3700 + 0.038 * step)
        })

    static var xml: String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-05-04 09:00:00 +0200"/>
             <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="kcal" startDate="2024-05-02 07:00:00 +0200" endDate="2024-05-02 07:20:00 +0200" value="95"/>
             <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="kJ" startDate="2024-05-03 18:00:00 +0200" endDate="2024-05-03 18:25:00 +0200" value="1046"/>

            """
        for workout in [walk, run] {
            text += """
                 <Workout workoutActivityType="\(workout.activity)" duration="20" durationUnit="min" totalDistance="2.6" totalDistanceUnit="km" sourceName="Watch" sourceVersion="10.4" startDate="\(workout.start)" endDate="\(workout.end)">
                  <WorkoutRoute sourceName="Watch" startDate="\(workout.start)" endDate="\(workout.end)">

                """
            let start = parse(workout.start)
            for (index, point) in workout.points.enumerated() {
                let date = format(start.addingTimeInterval(Double(index) * 20))
                text += "   <Location date=\"\(date)\" latitude=\"\(point.latitude)\" longitude=\"\(point.longitude)\" horizontalAccuracy=\"4\"/>\n"
            }
            text += "  </WorkoutRoute>\n </Workout>\n"
        }
        return text + "</HealthData>\n"
    }

    private static func parse(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    private static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 7200)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
