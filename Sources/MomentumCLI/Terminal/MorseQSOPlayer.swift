import Foundation
import MomentumCore
import MomentumServices

/// A QSO in the terminal: the station's transmissions are played in Morse, the person types what
/// they send and Enter sends it; the engine replies.
///
/// The station's text stays hidden, so the person copies by ear, until they ask (Enter on an
/// empty line) or answer it: then it is written above their line. Tab plays it again. After an
/// incomplete transmission the hint names what was missing. Esc (or Ctrl-C, Ctrl-D) ends early.
struct MorseQSOPlayer {
    var qso: QSO
    let keyer: MorseKeyer
    let sound: any MorseSoundPlayer
    let events: any PlayerEventSource
    var display: LiveDisplay
    let catalog: StringCatalog
    /// The band the station is heard on, and the seed its sounds start from; `nil` for clean.
    let band: (conditions: MorseBandConditions, seed: UInt64)?

    private var line = ""
    private var typing = TypedCharacters()
    /// The station's last transmission, and whether it has been shown.
    private var heard: (text: String, isShown: Bool)?

    init(
        qso: QSO, keyer: MorseKeyer, sound: any MorseSoundPlayer, events: any PlayerEventSource,
        display: LiveDisplay, catalog: StringCatalog, band: (conditions: MorseBandConditions, seed: UInt64)? = nil
    ) {
        self.band = band
        self.qso = qso
        self.keyer = keyer
        self.sound = sound
        self.events = events
        self.display = display
        self.catalog = catalog
    }

    static let stopKeys: Set<UInt8> = [27, 3, 4]

    /// Plays the contact until it is done (`true`) or the person ends it (`false`).
    mutating func play() async -> Bool {
        // One line per part, each fitting a 40-column terminal.
        let intro = catalog.format(.morseQSOIntro, ["call": qso.ownCallSign.text])
        for part in intro.split(separator: " · ") {
            for line in String(part).wrapped() { display.say(line) }
        }
        if let opening = qso.openingText {
            transmit(opening)
        } else {
            display.say(catalog[.morseQSOYourTurn])
        }
        while qso.phase != .done {
            drawLive()
            switch await events.next(until: nil) {
            case .tick, .straightKey:
                continue
            case nil:
                revealStation()
                return false
            case .key(let key) where Self.stopKeys.contains(key):
                revealStation()
                return false
            case .key(MorseTrainingKeys.tab):
                if let heard { play(heard.text) }
            case .key(let key) where MorseTrainingKeys.enter.contains(key):
                if line.allSatisfy(\.isWhitespace) {
                    revealStation()
                } else {
                    send()
                }
            case .key(let key) where MorseTrainingKeys.backspace.contains(key):
                if !line.isEmpty { line.removeLast() }
            case .key(let key):
                if let character = typing.read(key),
                    !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control })
                {
                    line.append(character)
                }
            }
        }
        revealStation()
        return true
    }

    /// Sends the typed line and plays the station's reply, with hints when something was missing.
    private mutating func send() {
        let text = line
        line = ""
        revealStation()
        display.clear()
        display.say("\(qso.ownCallSign.text): \(text)")
        let reply: QSOReply
        do {
            reply = try qso.receive(text)
        } catch {
            display.say(ErrorMessages.message(describing: error, catalog: catalog) ?? "\(error)")
            return
        }
        if !reply.ignoredCharacters.isEmpty {
            display.say(
                catalog.format(.qsoIgnored, ["characters": reply.ignoredCharacters.joined(separator: " ")]))
        }
        if !reply.missing.isEmpty { display.say(ErrorMessages.missingHint(reply.missing, catalog: catalog)) }
        transmit(reply.text)
    }

    /// The station sends `text`: it plays, hidden until asked for.
    private mutating func transmit(_ text: String) {
        heard = (text, false)
        play(text)
        display.say(catalog.format(.morseQSOStationSending, ["call": qso.station.callSign.text]))
    }

    private func play(_ text: String) {
        // Slower after each QRS the person sent.
        let station = MorseKeyer(timing: qso.stationTiming(from: keyer.timing))
        // try?: the station's texts are the contact's own (QSOReply.text: never empty, prosigns
        // written `<SK>`), so they key; one that did not is still shown on Enter (revealStation).
        guard let keying = try? station.keying(text, skippingUnencodable: true) else { return }
        // On a band, each transmission its own hand and noise: the seed and the turn.
        sound.play(
            keying, text: text, on: band?.conditions, timing: station.timing,
            seed: (band?.seed ?? 0) ^ UInt64(qso.transcript.count))
    }

    /// Writes the station's last transmission, once.
    private mutating func revealStation() {
        guard let shown = heard, !shown.isShown else { return }
        display.clear()
        display.say("\(qso.station.callSign.text): \(shown.text)")
        heard?.isShown = true
    }

    private mutating func drawLive() {
        guard display.isLive else { return }
        // A long line shows its end, with "…" in front, so the live line fits 40 columns and is
        // redrawn in place.
        func fits(_ typed: String) -> Bool {
            catalog.format(.morseQSOYouSend, ["typed": typed]).terminalWidth <= String.narrowestColumns
        }
        var shown = line
        if !fits(shown) {
            var tail = Substring(line)
            while !tail.isEmpty, !fits("…" + tail) { tail = tail.dropFirst() }
            shown = "…" + tail
        }
        let text = catalog.format(.morseQSOYouSend, ["typed": shown])
        display.draw([text], key: "line") { text }
    }
}
