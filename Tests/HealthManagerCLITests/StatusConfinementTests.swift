import Foundation
@testable import HealthManagerCLI
import HealthWire
import Testing

/// `healthctl status`'s Confinement row (StatusResponse fields 26–29): each of the three walls
/// varied alone from a fully confined healthd, carried over the wire as healthd sends it, shows
/// what is missing and what it costs; an older healthd that sends none says so rather than
/// claiming anything.
@Suite(.timeLimit(.minutes(10))) struct StatusConfinementTests {
    static let confined = BrokerStatus.Confinement(landlockABI: 7, seccompFiltered: true, peerInspector: .answering)

    static func line(_ confinement: BrokerStatus.Confinement) throws -> String {
        let status = BrokerStatus(storeDirectory: "/s", appSocket: "/a", adminSocket: "/m", installedApps: 0, pendingRequests: 0,
                                  connectedApps: 0, sampleCount: 0, version: "0", confinement: confinement)
        let received = try BrokerStatus(wire: status.wireBytes())
        #expect(received.confinement == confinement, "fields 26–29 round trip")
        let row = StatusCommand.render(received).split(separator: "\n").first { $0.hasPrefix("Confinement:") }
        return try #require(row.map { String($0.drop { $0 != " " }.drop { $0 == " " }) })
    }

    @Test func aFullyConfinedHealthdSaysSo() throws {
        #expect(try Self.line(Self.confined) == "files walled in (Landlock ABI 7), seccomp filter, peer inspector answering")
    }

    @Test func eachMissingWallIsNamedWithItsCost() throws {
        var noLandlock = Self.confined
        noLandlock.landlockABI = 0
        noLandlock.landlockMissingReason = "no Landlock in this kernel"
        #expect(try Self.line(noLandlock) == "files NOT walled in (no Landlock in this kernel), seccomp filter, peer inspector answering")
        var noSeccomp = Self.confined
        noSeccomp.seccompFiltered = false
        #expect(try Self.line(noSeccomp) == "files walled in (Landlock ABI 7), NO seccomp filter, peer inspector answering")
        var gone = Self.confined
        gone.peerInspector = .gone
        #expect(try Self.line(gone).hasSuffix("peer inspector GONE: every connection is refused until healthd restarts"))
        var inProcess = Self.confined
        inProcess.peerInspector = .inProcess
        #expect(try Self.line(inProcess).hasSuffix("peers read from /proc by healthd itself"))
    }

    @Test func anOlderHealthdThatSendsNothingIsNotReportedAsConfined() throws {
        #expect(try Self.line(BrokerStatus.Confinement()) == "not reported by this healthd")
    }
}
