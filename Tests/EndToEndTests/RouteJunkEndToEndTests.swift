import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Junk through the route calls (`insertRouteData`, `finishRoute`), as `JunkValueEndToEndTests`
/// does for `save`: this test process, an app speaking the wire to a real healthd, varies one
/// field of a valid location at a time over NaN, ±inf, ±1e308, 0, −1 and each field's edges,
/// then finishes the route with one metadata or device field varied. Rules
/// (`RouteLocationValidator`, after CoreLocation's `CLLocation`): latitude −90…90, longitude
/// −180…180, altitude −12,000…100,000 m, horizontal accuracy 0…20,037,509 m (negative marks an
/// invalid coordinate), vertical accuracy and speed at most 20,037,509 m and 1,000 m/s, course
/// below 360 (negative vertical accuracy, speed and course: not known, kept as sent), every
/// number finite. Accepted values are read back bit for bit. Each refusal is
/// errorInvalidArgument naming the field; healthd answers afterwards. (Session 17: altitude
/// ±1e308, accuracies and speed of 1e308 were stored before the bounds.)
@Suite(.timeLimit(.minutes(10)), .serialized) struct RouteJunkEndToEndTests {
    static let workout = HKWorkoutTypeIdentifier
    static let route = HKWorkoutRouteTypeIdentifier
    static let extremes: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, -1, 90.000_001, 180.000_001, 360, -90, 359.999,
                                     -12_000, -12_000.001, 100_000, 100_000.001, 1_000, 1_000.001, 20_037_509, 20_037_509.001]

    /// Whether `value` is allowed in `field`, by the rules above.
    static func allowed(_ field: String, _ value: Double) -> Bool {
        guard value.isFinite else { return false }
        switch field {
        case "latitude": return (-90...90).contains(value)
        case "longitude": return (-180...180).contains(value)
        case "altitude": return (-12_000...100_000).contains(value)
        case "horizontalAccuracy": return (0...20_037_509).contains(value)
        case "verticalAccuracy": return value <= 20_037_509
        case "speed": return value <= 1_000
        case "course": return value < 360
        default: return false
        }
    }

    static var fields: [(String, WritableKeyPath<RouteLocation, Double>)] {
        [("latitude", \.latitude), ("longitude", \.longitude), ("altitude", \.altitude),
         ("horizontalAccuracy", \.horizontalAccuracy), ("verticalAccuracy", \.verticalAccuracy),
         ("course", \.course), ("speed", \.speed)]
    }

    static func valid(_ second: Int) -> RouteLocation {
        RouteLocation(timestamp: RawRecords.start.addingTimeInterval(Double(second)), latitude: 46.5, longitude: 6.6,
                      altitude: 400, horizontalAccuracy: 5)
    }

    static func sameBits(_ a: RouteLocation, _ b: RouteLocation) -> Bool {
        a.timestamp == b.timestamp && fields.allSatisfy { a[keyPath: $0.1].bitPattern == b[keyPath: $0.1].bitPattern }
    }

    @Test func everyLocationAndFinishFieldIsRefusedNamingItOrStoredExactly() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install("org.test.route-junk", on: broker, grants: [
            ("share", Self.workout), ("share", Self.route), ("read", Self.workout), ("read", Self.route),
        ])
        defer { app.close() }
        let builder = UUID()
        var kept: [RouteLocation] = []
        var second = 1
        for (field, path) in Self.fields {
            for value in Self.extremes {
                var location = Self.valid(second)
                second += 1
                location[keyPath: path] = value
                let status = await app.failure(.insertRouteData, RouteDataChunk(builderID: builder, locations: [location]))
                if Self.allowed(field, value) {
                    #expect(status == nil, "\(field) \(value): refused: \(String(describing: status))")
                    if status == nil { kept.append(location) }
                } else {
                    #expect(status?.healthKitCode == .errorInvalidArgument, "\(field) \(value): \(String(describing: status))")
                    #expect(status?.message.contains(field) == true, "\(field) \(value): \(String(describing: status))")
                }
            }
        }
        var timestamp = Self.valid(0)
        timestamp.timestamp = Date(microsecondsSince1970: .max)
        let farFuture = await app.failure(.insertRouteData, RouteDataChunk(builderID: builder, locations: [timestamp]))
        #expect(farFuture?.message.contains("timestamp") == true, "\(String(describing: farFuture))")

        let workoutUUID = try #require(try await app.save([RawRecords.workout()]).first)
        let junkFinishes: [(String, [String: MetadataValue], DeviceRecord?, String)] = [
            ("metadata NaN", ["org.test.m": .number(.nan)], nil, "org.test.m"),
            ("metadata 1e308 m", ["org.test.m": .quantity(value: 1e308, unit: "m")], nil, "org.test.m"),
            ("metadata in Tm^24/pm^23", ["org.test.m": .quantity(value: 1, unit: "Tm^24/pm^23")], nil, "org.test.m"),
            ("metadata date in the year 294,000", ["org.test.m": .date(Date(microsecondsSince1970: .max))], nil, "org.test.m"),
            ("device name of 5,000 bytes", [:], DeviceRecord(name: String(repeating: "d", count: 5_000)), "device name"),
        ]
        for (name, metadata, device, field) in junkFinishes {
            let status = await app.failure(.finishRoute, RouteFinish(builderID: builder, workoutUUID: workoutUUID, metadata: metadata, device: device))
            #expect(status?.healthKitCode == .errorInvalidArgument, "\(name): \(String(describing: status))")
            #expect(status?.message.contains(field) == true, "\(name): \(String(describing: status))")
        }
        let metadata: [String: MetadataValue] = ["org.test.m": .string("\u{1B}[2J\u{202E}kept"), "org.test.q": .quantity(value: -1e240, unit: "m")]
        let finished = try FinishedRoute(wire: await app.client.unary(HealthStoreMethod.finishRoute.rawValue,
                                                                      RouteFinish(builderID: builder, workoutUUID: workoutUUID, metadata: metadata).wireBytes()))
        #expect(finished.route.metadata == metadata)

        var read: [RouteLocation] = []
        for try await batch in app.client.serverStream(HealthStoreMethod.queryRouteData.rawValue, RouteDataQuery(routeUUID: finished.route.uuid).wireBytes()) {
            read += try RouteLocationBatch(wire: batch).locations
        }
        #expect(read.count == kept.count)
        for (stored, sent) in zip(read, kept.sorted { $0.timestamp < $1.timestamp }) {
            #expect(Self.sameBits(stored, sent), "\(sent) came back as \(stored)")
        }
        // healthd survived every case.
        #expect(try await app.query(SampleQuerySpec(typeIdentifier: Self.workout)).count == 1)
    }
}
