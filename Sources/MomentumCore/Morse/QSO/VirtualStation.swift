/// The simulated station on the other end of a QSO: who it is, where, with what, and the report
/// it gives.
///
/// Every text is upper case and can be keyed in Morse. Stations usually come from
/// ``random(avoiding:using:)``, so a seed replays the same station.
///
/// ```swift
/// var generator = SeededRandomNumberGenerator(seed: 7)
/// let station = VirtualStation.random(using: &generator)
/// station.callSign.text  // e.g. "KB3QZ"
/// station.location       // e.g. "BALTIMORE MD", in the call sign's district
/// ```
public struct VirtualStation: Sendable, Hashable, Codable {
    public var callSign: CallSign
    /// The operator's first name, as sent after `NAME`.
    public var name: String
    /// The town (and US state or Canadian province), as sent after `QTH`.
    public var location: String
    /// The transceiver, as sent after `RIG`: `IC7300`, `K3`.
    public var rig: String
    /// The transmitter power in watts.
    public var power: Int
    /// The antenna, as sent after `ANT`: `DIPOLE`.
    public var antenna: String
    /// The weather word sent after `WX`: `SUNNY`.
    public var weather: String
    /// The temperature in whole degrees Celsius, sent as `TEMP 20C`.
    public var temperature: Int
    /// The report this station gives the person.
    public var report: SignalReport
    /// The station's contest serial number for this contact, 1 or more.
    public var serialNumber: Int

    public init(
        callSign: CallSign, name: String, location: String, rig: String, power: Int, antenna: String,
        weather: String, temperature: Int, report: SignalReport, serialNumber: Int
    ) {
        self.callSign = callSign
        self.name = name
        self.location = location
        self.rig = rig
        self.power = power
        self.antenna = antenna
        self.weather = weather
        self.temperature = temperature
        self.report = report
        self.serialNumber = serialNumber
    }

    /// The serial number as sent: at least three digits, `042`.
    public var serialNumberText: String {
        let digits = String(serialNumber)
        return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// The weather and temperature as sent after `WX`: `SUNNY TEMP 20C`.
    public var weatherText: String { "\(weather) TEMP \(temperature)C" }

    /// The rig, power and antenna as sent after `RIG`: `IC7300 100W ANT DIPOLE`.
    public var rigText: String { "\(rig) \(power)W ANT \(antenna)" }
}
