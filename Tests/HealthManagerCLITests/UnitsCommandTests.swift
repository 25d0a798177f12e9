import Foundation
import HealthIPC
import HealthManagerCLI
import HealthModel
import HealthWire
import Testing

/// `healthctl units show|set|reset` against a fake healthd.
@Suite(.timeLimit(.minutes(10))) struct UnitsCommandTests {
    static let bodyMass = HKQuantityTypeIdentifier.bodyMass.rawValue

    static func broker(choices: [PreferredUnit]) throws -> FakeManagerServer {
        try FakeManagerServer { call in
            switch HealthManagerMethod(rawValue: call.method) {
            case .setUnitPreference: call.responder.respond(EmptyMessage().wireBytes())
            case .listUnitPreferences: call.responder.respond(PreferredUnitList(choices).wireBytes())
            default: call.responder.fail(RPCStatus(.unimplemented, call.method), streaming: false)
            }
        }
    }

    @Test func showListsTheChoicesOrSaysThereAreNone() async throws {
        let server = try Self.broker(choices: [PreferredUnit(typeIdentifier: Self.bodyMass, unit: "lb"),
                                               PreferredUnit(typeIdentifier: HKQuantityTypeIdentifier.bloodGlucose.rawValue, unit: "mg/dL")])
        defer { server.stop() }
        let outcome = await runHealthCtl(["units", "show", "--socket", server.socketPath])
        #expect(outcome.exitCode == 0, "\(outcome.errors)")
        #expect(outcome.output == """
            TYPE           UNIT
            Blood Glucose  mg/dL
            Body Mass      lb

            """)
        let empty = try Self.broker(choices: [])
        defer { empty.stop() }
        #expect(await runHealthCtl(["units", "--socket", empty.socketPath]).output == "No units chosen: apps use their locale's defaults.\n")
    }

    @Test func setAndResetSendTheChoice() async throws {
        let server = try Self.broker(choices: [])
        defer { server.stop() }
        let set = await runHealthCtl(["units", "set", "--socket", server.socketPath, "body-mass", "lb"])
        #expect(set.exitCode == 0, "\(set.errors)")
        #expect(set.output == "Body Mass: apps asking for your preferred unit now get lb.\n")
        let reset = await runHealthCtl(["units", "reset", "--socket", server.socketPath, "bodyMass"])
        #expect(reset.exitCode == 0, "\(reset.errors)")
        #expect(try server.payloads(for: .setUnitPreference).map(PreferredUnit.init(wire:)) == [
            PreferredUnit(typeIdentifier: Self.bodyMass, unit: "lb"), PreferredUnit(typeIdentifier: Self.bodyMass, unit: ""),
        ])
    }

    @Test func aUnitThatCannotMeasureTheTypeIsRefusedBeforeAnythingIsSent() async throws {
        let server = try Self.broker(choices: [])
        defer { server.stop() }
        let cases = [
            (["bodyMass", "km"], "'km' cannot measure Body Mass; use a unit like kg"),
            (["bodyMass", "furlongs"], "'furlongs' is not a HealthKit unit string"),
            (["sleepAnalysis", "hr"], "Sleep Analysis is not a quantity type; only quantities have units"),
            // Session 16: a length of 10^-564 m, in which every stored distance reads as +inf.
            (["distanceWalkingRunning", "pm^24/Tm^23"], "must lie within 10^±60"),
        ]
        for (arguments, message) in cases {
            let outcome = await runHealthCtl(["units", "set", "--socket", server.socketPath] + arguments)
            #expect(outcome.exitCode == HealthCtlExitCode.usage.rawValue)
            #expect(outcome.errors.contains(message), "\(outcome.errors)")
        }
        #expect(server.payloads(for: .setUnitPreference).isEmpty)
    }
}
