import Foundation
import Testing
import TestSupport

/// `healthctl report` rendered by a real browser: headless Chromium (Debian `chromium`,
/// scripts/install-deps.sh) loads the page from disk, and its DOM and a screenshot are checked.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportEndToEndTests {
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

    /// With `--routes full`, each workout's route is one map: the walk's polyline green and the
    /// run's red, a start and an end marker, and every drawn point inside the map's viewBox — as
    /// Chromium parsed it.
    @Test func routesAreDrawnAsMapsColouredByActivityWithMarkersInsideTheView() async throws {
        let broker = try BrokerProcess()
        let fixture = broker.root + "/routes.xml"
        try Data(RouteExportFixture.xml.utf8).write(to: URL(fileURLWithPath: fixture))
        let imported = try await broker.healthctl(["import", fixture, "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)")
        let page = broker.root + "/routes.html"
        let written = try await broker.healthctl(["report", "--html", page, "--from", "2024-05-01", "--to", "2024-05-04",
                                                   "--routes", "full"])
        #expect(written.status == 0, "\(written)\n\(broker.log)")

        let dom = try await browser(["--dump-dom", "file://" + page])
        #expect(dom.status == 0, "\(dom.stderr)")
        let maps = dom.stdout.components(separatedBy: "<svg class=\"map\"").dropFirst().map { $0.components(separatedBy: "</svg>")[0] }
        #expect(maps.count == 2, "\(dom.stdout)")
        var colours: [String: String] = [:]
        for map in maps {
            let view = try #require(map.firstMatch(of: /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/), "\(map)")
            let width = try #require(Double(view.output.1)), height = try #require(Double(view.output.2))
            func inside(_ x: Double, _ y: Double) -> Bool { x >= 0 && x <= width && y >= 0 && y <= height }
            let line = try #require(map.firstMatch(of: /<polyline class="route" data-activity="(\w+)"[^>]* stroke="(#[0-9a-f]{6})"[^>]* points="([^"]+)"/))
            colours[String(line.output.1)] = String(line.output.2)
            let points = line.output.3.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
            #expect(points.count > 30 && points.allSatisfy { $0.count == 2 && inside($0[0], $0[1]) }, "\(line.output.3)")
            for marker in ["start", "end"] {
                let pattern = try Regex("<circle class=\"\(marker)\" cx=\"([0-9.-]+)\" cy=\"([0-9.-]+)\"")
                let circle = try #require(map.firstMatch(of: pattern), "\(map)")
                let x = try #require(Double(circle.output[1].substring ?? "")), y = try #require(Double(circle.output[2].substring ?? ""))
                #expect(inside(x, y), "\(marker) at \(x),\(y)")
            }
            // The fit: the route reaches the margins on its longer side.
            let xs = points.map { $0[0] }, ys = points.map { $0[1] }
            let spanX = (xs.max() ?? 0) - (xs.min() ?? 0), spanY = (ys.max() ?? 0) - (ys.min() ?? 0)
            #expect(abs(spanX - (width - 32)) < 1 || abs(spanY - (height - 32)) < 1, "fitted: \(spanX) × \(spanY)")
        }
        #expect(colours == ["walk": "#2e9e44", "run": "#d62828"], "\(colours)")
        // Daily active energy: one bar per day, the kJ reading converted (1046 kJ = 250 kcal).
        let energy = try #require(dom.stdout.components(separatedBy: "data-chart=\"active-energy\"").dropFirst().first)
        #expect(energy.components(separatedBy: "</svg>")[0].components(separatedBy: "<rect class=\"bar\"").count - 1 == 2)
        #expect(energy.contains("2024-05-03: 250"), "\(energy)")

        let shot = broker.root + "/routes.png"
        let result = try await browser(["--screenshot=" + shot, "--window-size=900,1800", "file://" + page])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int ?? 0) > 10_000)
        if let keep = ProcessInfo.processInfo.environment["OPENHEALTH_KEEP_SCREENSHOT"] {
            // For the README's picture: `OPENHEALTH_KEEP_SCREENSHOT=docs/images/report-routes.png`.
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: shot, toPath: keep)
        }
    }

    /// A report is made to be handed on: by default no map marks where a workout began or ended,
    /// nothing is drawn near either (the run goes out 2.6 km and back to its start: its far end
    /// is drawn, the ~500 m around the start is not), and the page says so and how to draw whole
    /// routes; `--routes none` draws no map at all. Checked in the DOM Chromium built from the
    /// page. (Before, every route was drawn whole, its start and end marked: storage review,
    /// session 18; the default case failed on the markers.)
    @Test func byDefaultRoutesHideTheirStartAndEndAndNoneLeavesMapsOut() async throws {
        let broker = try BrokerProcess()
        let fixture = broker.root + "/routes.xml"
        try Data(RouteExportFixture.xml.utf8).write(to: URL(fileURLWithPath: fixture))
        #expect(try await broker.healthctl(["import", fixture, "--characteristics", "no"]).status == 0)
        var pages: [String: String] = [:]
        for mode in ["default", "full", "none"] {
            let page = broker.root + "/routes-\(mode).html"
            let written = try await broker.healthctl(["report", "--html", page, "--from", "2024-05-01", "--to", "2024-05-04"]
                                                     + (mode == "default" ? [] : ["--routes", mode]))
            #expect(written.status == 0, "\(mode): \(written)\n\(broker.log)")
            let dom = try await browser(["--dump-dom", "file://" + page])
            #expect(dom.status == 0, "\(dom.stderr)")
            pages[mode] = dom.stdout
        }
        let hidden = try #require(pages["default"]), whole = try #require(pages["full"]), none = try #require(pages["none"])
        func points(_ dom: String) -> Int {
            dom.matches(of: /<polyline class="route"[^>]* points="([^"]+)"/).map { $0.output.1.split(separator: " ").count }.reduce(0, +)
        }
        // The run's map at least (the walk, a loop of ~300 m radius, may stay within the hidden area).
        #expect((1...2).contains(hidden.components(separatedBy: "<svg class=\"map\"").count - 1), "\(hidden)")
        #expect(!hidden.contains("<circle class=\"start\"") && !hidden.contains("<circle class=\"end\""), "\(hidden)")
        #expect(points(hidden) > 0 && points(hidden) < points(whole), "drawn \(points(hidden)) of \(points(whole)) points")
        #expect(hidden.contains("--routes full"), "the page says how to draw whole routes")
        #expect(whole.contains("<circle class=\"start\"") && whole.contains("<circle class=\"end\""))
        #expect(!none.contains("<svg class=\"map\"") && none.contains("left out"), "\(none)")
    }
}
