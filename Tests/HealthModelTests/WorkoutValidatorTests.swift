import Foundation
import Testing
@testable import HealthModel

/// What a workout may hold (`WorkoutValidator`, through `SampleValidator`), its default
/// duration, and the checks on route locations.
@Suite(.timeLimit(.minutes(10))) struct WorkoutValidatorTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func at(_ offset: TimeInterval) -> Date { start.addingTimeInterval(offset) }

    static func event(_ type: HKWorkoutEventType, _ offset: TimeInterval, _ duration: TimeInterval = 0,
                      _ metadata: [String: MetadataValue] = [:]) -> WorkoutEventRecord {
        WorkoutEventRecord(type: type.rawValue, startDate: at(offset), endDate: at(offset + duration), metadata: metadata)
    }

    static func workout(_ events: [WorkoutEventRecord] = [], duration: TimeInterval = 3600, activity: UInt = 37,
                        energy: RecordedQuantity? = nil, distance: RecordedQuantity? = nil) -> SampleRecord {
        SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutTypeIdentifier, startDate: start, endDate: at(3600),
                     value: .workout(WorkoutValue(activityType: activity, duration: duration, totalEnergyBurned: energy,
                                                  totalDistance: distance, events: events)))
    }

    /// The validator's message for `record`, or nil when it accepts it.
    static func rejection(_ record: SampleRecord) -> String? {
        do {
            _ = try SampleValidator.canonicalized(record)
            return nil
        } catch {
            #expect(error.code == .errorInvalidArgument)
            return error.message
        }
    }

    @Test func aValidWorkoutHasItsTotalsConvertedToCanonicalUnits() throws {
        let record = Self.workout([Self.event(.lap, 0, 600), Self.event(.pause, 600), Self.event(.resume, 900),
                                   Self.event(.segment, 900, 2700), Self.event(.marker, 3600)],
                                  duration: 3300, energy: RecordedQuantity(2092, unit: "kJ"), distance: RecordedQuantity(10, unit: "km"))
        guard case let .workout(canonical) = try SampleValidator.canonicalized(record).value else {
            Issue.record("a workout came back as another kind of value")
            return
        }
        #expect(canonical.totalEnergyBurned == RecordedQuantity(500, unit: "kcal"))
        #expect(canonical.totalDistance == RecordedQuantity(10_000, unit: "m"))
        #expect(canonical.events.count == 5)
    }

    @Test(arguments: [
        (workout(activity: 81), "activity type 81"),
        (workout(duration: 3601), "duration"),
        (workout(duration: -1), "duration"),
        (workout(duration: .nan), "duration"),
        (workout(energy: RecordedQuantity(1, unit: "m")), "totalEnergyBurned has unit m"),
        (workout(distance: RecordedQuantity(-5, unit: "m")), "totalDistance must be a finite number, not negative"),
        (workout(distance: RecordedQuantity(5, unit: "furlong")), "totalDistance has an invalid unit"),
        (workout([event(.marker, -1)]), "workout event 1 (marker): its interval must lie inside"),
        (workout([event(.lap, 3000, 601)]), "workout event 1 (lap): its interval must lie inside"),
        (workout([WorkoutEventRecord(type: 9, startDate: at(1), endDate: at(1))]), "type 9 is not an HKWorkoutEventType"),
        (workout([event(.pause, 10, 5)]), "only lap and segment events may have a duration"),
        (workout([event(.resume, 10)]), "workout event 1 (resume): the workout is not paused"),
        (workout([event(.pause, 10), event(.pause, 20)]), "workout event 2 (pause): the workout is already paused"),
        (workout([event(.motionResumed, 10)]), "motionPaused must come first"),
        (workout([event(.marker, 20), event(.marker, 10)]), "chronological order"),
        (workout([event(.marker, 20, 0, ["HKNotAKey": .string("x")])]), "workout event 1 (marker): HKWorkoutTypeIdentifier: metadata key HKNotAKey"),
    ])
    func invalidWorkoutsAreRejectedSayingWhatIsWrong(record: SampleRecord, expected: String) {
        let message = Self.rejection(record)
        #expect(message?.contains(expected) == true, "\(String(describing: message))")
    }

    @Test func pausesAndMotionPausesAlternateIndependentlyAndAWorkoutMayEndPaused() {
        #expect(Self.rejection(Self.workout([Self.event(.pause, 10), Self.event(.motionPaused, 20), Self.event(.resume, 30),
                                             Self.event(.motionResumed, 40), Self.event(.pause, 50),
                                             Self.event(.pauseOrResumeRequest, 60)], duration: 60)) == nil)
    }

    @Test func theDefaultDurationSubtractsPausedTime() {
        let events = [Self.event(.pause, 600), Self.event(.resume, 900), Self.event(.motionPaused, 1000),
                      Self.event(.motionResumed, 1100), Self.event(.pause, 3000)]
        #expect(WorkoutValue.activeDuration(start: Self.start, end: Self.at(3600), events: events) == 3600 - 300 - 600)
        #expect(WorkoutValue.activeDuration(start: Self.start, end: Self.at(3600), events: []) == 3600)
    }

    @Test func routesCannotBeSavedAsPlainSamples() {
        let route = SampleRecord(uuid: UUID(), typeIdentifier: HKWorkoutRouteTypeIdentifier, startDate: Self.start,
                                 endDate: Self.at(60), value: .workoutRoute(locationCount: 2))
        #expect(Self.rejection(route)?.contains("HKWorkoutRouteBuilder") == true)
    }

    @Test func routeLocationsMustBeOnEarthWithAValidFix() {
        func location(lat: Double = 47, lon: Double = 8, accuracy: Double = 5, course: Double = -1) -> RouteLocation {
            RouteLocation(timestamp: Self.start, latitude: lat, longitude: lon, horizontalAccuracy: accuracy, course: course)
        }
        #expect(throws: Never.self) { try RouteLocationValidator.check([location(lat: 90, lon: -180), location(lat: -90, lon: 180)]) }
        let invalid: [(RouteLocation, String)] = [
            (location(lat: 90.0001), "latitude"), (location(lon: -180.5), "longitude"), (location(lat: .nan), "finite"),
            (location(lon: .infinity), "finite"), (location(accuracy: -1), "horizontalAccuracy"), (location(course: 360), "course"),
        ]
        for (bad, expected) in invalid {
            do {
                try RouteLocationValidator.check([location(), bad], offset: 10)
                Issue.record("accepted a location with a bad \(expected)")
            } catch {
                #expect(error.message.hasPrefix("route location 12: "), "\(error.message)")
                #expect(error.message.contains(expected), "\(error.message)")
            }
        }
    }
}
