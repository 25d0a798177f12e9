import Foundation
import Testing
import TestSupport

/// `healthctl report` rendered by a real browser: headless Chromium (Debian `chromium`,
/// scripts/install-deps.sh) loads the page from disk, and its DOM and a screenshot are checked.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ReportEndToEndTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    func browser(_ arguments: [String]) async throws -> ProcessResult {
        let executable = try #require(Self.chromium, "headless Chromium is needed: run scripts/install-deps.sh")
        // --no-sandbox: the tests run as root in CI, where Chromium's own sandbox refuses to start.
        return try await ProcessRun.run(executable, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments,
                                        environment: ["HOME": NSTemporaryDirectory()], timeout: 90)
    }

    @Test func theReportRendersInChromiumWithEveryChartAndHostileTextStaysText() async throws {
        let broker = try BrokerProcess()
        let fixture = broker.root + "/hostile.xml"
        try Data(HostileExportFixture.xml.utf8).write(to: URL(fileURLWithPath: fixture))
        #expect(try await broker.healthctl(["import", fixture, "--characteristics", "no"]).status == 0)
        let page = broker.root + "/report.html"
        let written = try await broker.healthctl(["report", "--html", page, "--from", "2024-04-25", "--to", "2024-05-05"])
        #expect(written.status == 0, "\(written)\n\(broker.log)")
        #expect((try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? Int) == 0o600)

        let dom = try await browser(["--dump-dom", "file://" + page])
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.components(separatedBy: "<svg class=\"chart\"").count - 1 == 4, "\(dom.stdout)")
        for chart in ["steps", "heart-rate", "sleep", "body-mass"] { #expect(dom.stdout.contains("data-chart=\"\(chart)\"")) }
        #expect(dom.stdout.contains("<rect class=\"bar\"") && dom.stdout.contains("<polyline class=\"line\""))
        // The workout's source is named `Watch "<script>alert(1)</script>" …`: in the DOM it is
        // text, and the page holds no script element at all.
        #expect(!dom.stdout.lowercased().contains("<script"), "\(dom.stdout)")
        #expect(dom.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(dom.stdout)")
        #expect(dom.stdout.contains("Running"))

        let shot = broker.root + "/report.png", blankPage = broker.root + "/blank.html", blankShot = broker.root + "/blank.png"
        try Data("<html><body></body></html>".utf8).write(to: URL(fileURLWithPath: blankPage))
        for (source, target) in [(page, shot), (blankPage, blankShot)] {
            let result = try await browser(["--screenshot=" + target, "--window-size=900,1900", "file://" + source])
            #expect(result.status == 0, "\(result.stderr)")
        }
        // Charts, tables and text compress far worse than a white page of the same size.
        let size = try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int ?? 0
        let blank = try FileManager.default.attributesOfItem(atPath: blankShot)[.size] as? Int ?? 0
        #expect(blank > 0 && size > 5 * blank, "report \(size) bytes, blank page \(blank) bytes")
    }
}
