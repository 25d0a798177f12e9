import HealthIPC
@testable import HealthManagerCLI
import Testing

/// Where healthctl looks for healthd: --socket, else $OPENHEALTH_ADMIN_SOCKET, else the default.
@Suite(.timeLimit(.minutes(10))) struct ConnectionOptionsTests {
    func options(_ arguments: [String]) throws -> ConnectionOptions {
        try ConnectionOptions.parse(arguments)
    }

    @Test func flagWinsOverEnvironment() throws {
        let path = try options(["--socket", "/a/admin.sock"]).socketPath(environment: ["OPENHEALTH_ADMIN_SOCKET": "/b/admin.sock"])
        #expect(path == "/a/admin.sock")
    }

    @Test func environmentWinsOverDefault() throws {
        #expect(try options([]).socketPath(environment: ["OPENHEALTH_ADMIN_SOCKET": "/b/admin.sock"]) == "/b/admin.sock")
    }

    @Test func defaultIsWhereHealthdListens() throws {
        #expect(try options([]).socketPath(environment: [:]) == DefaultPaths.adminSocket(in: DefaultPaths.socketDirectory))
        #expect(try options([]).socketPath(environment: ["OPENHEALTH_ADMIN_SOCKET": ""]) == DefaultPaths.adminSocket(in: DefaultPaths.socketDirectory))
    }
}
