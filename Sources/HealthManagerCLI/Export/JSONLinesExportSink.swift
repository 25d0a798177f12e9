import Foundation
import HealthModel

/// `healthctl export --format json`: one file, one JSON object per sample per line (the shape of
/// `healthctl samples --json`), quantities in the type's export unit (`ExportUnits`).
final class JSONLinesExportSink: ExportSink {
    let wantsRoutes = false
    private var output: StagedOutput
    private let units: ExportUnits
    private let file: BufferedFile

    init(destination: URL, units: ExportUnits) throws(HealthCtlError) {
        output = try StagedOutput(destination: destination, kind: .file)
        self.units = units
        file = BufferedFile(handle: try output.createFile(), path: destination.path)
    }

    func add(_ sample: SampleRecord, routes: [ExportedRoute]) throws(HealthCtlError) {
        let unit = (HKObjectType.type(forIdentifier: sample.typeIdentifier) as? HKQuantityType).map(units.unit(for:))
        try file.write(SampleFormatter(displayUnit: unit, timeZone: .gmt).jsonLine(sample) + "\n")
    }

    func finish() throws(HealthCtlError) {
        try file.close()
        try output.commit()
    }

    func discard() {
        try? file.close()
        output.discard()
    }
}
