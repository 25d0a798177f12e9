import Foundation
import Glibc
import Testing
import TestSupport

/// An app has a network only when its manifest asks for it (`"network": true`) and the user
/// allowed it (`healthctl apps allow-network`) — issue 12. Each of the four combinations runs
/// `escape-probe network` under the real launcher, as root and as an ordinary user: a TCP
/// connect to a listener on the host's loopback works only with both. With the network shared,
/// the host's abstract Unix sockets stay out of reach (Landlock's scope, ABI ≥ 6), while one the
/// app binds is reachable from the host (the documented price of the network).
@Suite(.timeLimit(.minutes(10)), .serialized) struct NetworkAccessTests {
    struct Combination: CustomStringConvertible, Sendable {
        let asks: Bool
        let allowed: Bool
        var appID: String { "org.test.net-\(asks ? "asks" : "silent")-\(allowed ? "allowed" : "denied")" }
        var listed: String { asks ? (allowed ? "on" : "requested") : (allowed ? "permitted" : "off") }
        var description: String { "manifest \(asks ? "asks" : "does not ask"), user \(allowed ? "allows" : "does not allow")" }
    }

    static let combinations = [false, true].flatMap { asks in [false, true].map { Combination(asks: asks, allowed: $0) } }

    @Test(arguments: RealSandboxEscapeTests.availableUsers)
    func onlyAnAppThatAsksAndIsAllowedReachesTheNetwork(user: EscapeUser) async throws {
        let world = try await EscapeWorld(user: user)
        defer { world.stop() }
        let tcp = try LoopbackListener()
        let abstract = try AbstractListener()
        for combination in Self.combinations {
            let app = try await world.install(combination.appID, product: "escape-probe", manifest: ["network": combination.asks])
            if combination.allowed {
                let allowed = try await world.healthctl(["apps", "allow-network", combination.appID])
                #expect(allowed.status == 0, "\(allowed)")
            }
            let run = try await world.runSandboxed(combination.appID, data: app.data,
                                                   [app.executable, "network", String(tcp.port), abstract.name])
            #expect(run.status == 0, "\(run)")
            let seen = RealSandboxEscapeTests.results(run)
            let networked = combination.asks && combination.allowed
            let expected: [String: String] = [
                "inet_socket": networked ? "allowed" : "denied (EAFNOSUPPORT)",
                "inet6_socket": networked ? "allowed" : "denied (EAFNOSUPPORT)",
                "inet_connect_loopback": networked ? "allowed" : "denied (EAFNOSUPPORT)",
                "netlink_socket": "denied (EAFNOSUPPORT)",
                // Own network namespace: the host's listener is not there. Shared: Landlock's scope refuses it.
                "abstract_connect_outside": networked ? (KernelFeatures.hasLandlockScopes ? "denied (EPERM)" : "allowed")
                    : "denied (ECONNREFUSED)",
            ]
            for (attempt, result) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(seen[attempt] == result, "\(user), \(combination): \(attempt) is \(seen[attempt] ?? "missing"), expected \(result)")
            }
        }
        let listed = try await world.healthctl(["apps", "list"])
        for combination in Self.combinations {
            let line = listed.lines.first { $0.hasPrefix(combination.appID + " ") }
            #expect(line?.split(separator: " ").contains(Substring(combination.listed)) == true,
                    "\(combination): apps list shows \(line ?? "nothing"), expected NETWORK \(combination.listed)")
        }
        // The decision documented in SECURITY.md: with the network shared, an abstract socket the
        // app binds is reachable from the host (as a loopback port would be); without, it is not.
        let health = Products.path("health-sandbox")
        let probe = world.root + "/apps/org.test.net-asks-allowed/escape-probe"
        let shared = try await AbstractSocketEscapeTests.connectWhileListening(user: user, world: world,
                                                                               name: "ohk-net-" + UUID().uuidString.prefix(8)) { name in
            [health, "run", "org.test.net-asks-allowed", "--socket", world.adminSocket, "--", probe, "listen-abstract", name]
        }
        #expect(shared.connectErrno == 0 && shared.output.contains("abstract_inside_accepted: yes"),
                "\(user): with the network, an abstract socket bound inside: errno \(shared.connectErrno), \(shared.output)")

        // Withdrawn again: the next launch has no network.
        let denied = try await world.healthctl(["apps", "deny-network", "org.test.net-asks-allowed"])
        #expect(denied.status == 0, "\(denied)")
        let again = try await world.runSandboxed("org.test.net-asks-allowed", data: world.root + "/data/org.test.net-asks-allowed",
                                                 [world.root + "/apps/org.test.net-asks-allowed/escape-probe", "network",
                                                  String(tcp.port), abstract.name])
        #expect(RealSandboxEscapeTests.results(again)["inet_connect_loopback"] == "denied (EAFNOSUPPORT)", "\(again)")

        // Control: unconfined, every attempt works, so each refusal above is the sandbox's.
        let control = try await user.run(world.root + "/apps/org.test.net-asks-allowed/escape-probe",
                                         ["network", String(tcp.port), abstract.name])
        let unconfined = RealSandboxEscapeTests.results(control)
        for attempt in ["inet_socket", "inet6_socket", "inet_connect_loopback", "netlink_socket", "abstract_connect_outside"] {
            #expect(unconfined[attempt] == "allowed", "control: \(attempt) is \(unconfined[attempt] ?? "missing")")
        }
    }
}

/// A TCP listener on 127.0.0.1 (an ephemeral port) outside the sandbox; connections wait in
/// its backlog, which is all a connect needs.
final class LoopbackListener {
    let port: UInt16
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
    }

    deinit { close(fd) }
}
