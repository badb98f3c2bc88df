import BadgeCore
import BadgeMesh
import Testing

/// One owner per channel: the first claim stands; at once, the smaller (claimed, host).
@Suite struct ClaimsTests {
  let mail = name("mail")
  /// The wall clock the claims are heard at, and claims `ms` after 2025-12-01.
  static let now: Int64 = 1_764_620_000_000
  static func at(_ ms: Int64) -> Int64 { 1_764_540_000_000 + ms }

  @Test func aClaimStandsWhenNoneIsKnown() {
    var claims = Claims(host: "desktop")
    let claim1 = claims.claim(mail, now: Self.at(100))
    #expect(claim1 == Claim(host: "desktop", claimed: Self.at(100)))
    #expect(claims.isHeldHere(mail))
    // Claiming again keeps the first claim's time.
    let claim2 = claims.claim(mail, now: Self.at(900))
    #expect(claim2 == Claim(host: "desktop", claimed: Self.at(100)))
    #expect(claims.held == [mail])
  }

  @Test func aRetainedStateNamingAnotherOwnerIsFoundFirst() {
    var claims = Claims(host: "laptop")
    let verdict1 = claims.heard(mail, Claim(host: "desktop", claimed: Self.at(500)), now: Self.now)
    #expect(verdict1 == .earlier(previous: nil))
    // Even with an earlier clock, laptop does not take it over: the known claim stands.
    let claim3 = claims.claim(mail, now: Self.at(10))
    #expect(claim3 == Claim(host: "desktop", claimed: Self.at(500)))
    #expect(!claims.isHeldHere(mail))
  }

  @Test func twoClaimsAtOnceTheSmallerWinsOnBothMachines() {
    var desktop = Claims(host: "desktop")
    var laptop = Claims(host: "laptop")
    _ = desktop.claim(mail, now: Self.at(1000))
    _ = laptop.claim(mail, now: Self.at(1000))
    // Same millisecond: the smaller host wins, on each machine alike.
    let verdict2 = desktop.heard(mail, Claim(host: "laptop", claimed: Self.at(1000)), now: Self.now)
    #expect(verdict2 == .later(owner: Claim(host: "desktop", claimed: Self.at(1000))))
    #expect(
      laptop.heard(mail, Claim(host: "desktop", claimed: Self.at(1000)), now: Self.now)
        == .earlier(previous: Claim(host: "laptop", claimed: Self.at(1000))))
    #expect(desktop.owner(of: mail)?.host == "desktop" && laptop.owner(of: mail)?.host == "desktop")
  }

  @Test func aWinnerNeverGivesWayToALaterClaim() {
    var claims = Claims(host: "desktop")
    _ = claims.claim(mail, now: Self.at(1000))
    for later in [
      Claim(host: "laptop", claimed: Self.at(1001)), Claim(host: "aaa", claimed: Self.at(5000)),
      Claim(host: "zzz", claimed: Self.at(1000)),
    ] {
      let verdict3 = claims.heard(mail, later, now: Self.now)
      #expect(verdict3 == .later(owner: Claim(host: "desktop", claimed: Self.at(1000))))
    }
    #expect(claims.isHeldHere(mail))
  }

  @Test func theSameOwnerKeepsItsEarliestClaim() {
    var claims = Claims(host: "laptop")
    _ = claims.heard(mail, Claim(host: "desktop", claimed: Self.at(500)), now: Self.now)
    let verdict4 = claims.heard(mail, Claim(host: "desktop", claimed: Self.at(800)), now: Self.now)
    #expect(verdict4 == .owner)
    #expect(claims.owner(of: mail) == Claim(host: "desktop", claimed: Self.at(500)))
    let verdict5 = claims.heard(mail, Claim(host: "desktop", claimed: Self.at(200)), now: Self.now)
    #expect(verdict5 == .owner)
    #expect(claims.owner(of: mail) == Claim(host: "desktop", claimed: Self.at(200)))
  }

  @Test func aReleaseForgetsTheOwner() {
    var claims = Claims(host: "laptop")
    _ = claims.heard(mail, Claim(host: "desktop", claimed: Self.at(500)), now: Self.now)
    let released1 = claims.release(mail)
    #expect(released1 == Claim(host: "desktop", claimed: Self.at(500)))
    #expect(claims.owner(of: mail) == nil)
    let claim4 = claims.claim(mail, now: Self.at(900))
    #expect(claim4 == Claim(host: "laptop", claimed: Self.at(900)))
  }

  @Test func aClaimNoMachineCouldHaveMadeIsRefused() {
    var claims = Claims(host: "desktop")
    _ = claims.claim(mail, now: Self.at(1000))
    let floor = Claims.floor
    for claimed: Int64 in [1, 0, -5, floor - 1, Self.now + 86_400_001, Int64.max] {
      let verdict = claims.heard(mail, Claim(host: "laptop", claimed: claimed), now: Self.now)
      guard case .refused = verdict else {
        Issue.record("\(claimed): \(verdict)")
        continue
      }
    }
    #expect(
      claims.heard(mail, Claim(host: "laptop", claimed: 1), now: Self.now)
        == .refused("its claim (1) is before 2024-01-01"))
    #expect(
      claims.heard(mail, Claim(host: "laptop", claimed: Self.now + 86_400_001), now: Self.now)
        == .refused("its claim (1764706400001) is more than a day ahead of this machine's clock"))
    #expect(claims.owner(of: mail) == Claim(host: "desktop", claimed: Self.at(1000)))
    // The bounds themselves are claims a machine could make: the floor, and a day ahead.
    #expect(
      claims.heard(mail, Claim(host: "zzz", claimed: Self.now + 86_400_000), now: Self.now)
        == .later(owner: Claim(host: "desktop", claimed: Self.at(1000))))
    #expect(
      claims.heard(mail, Claim(host: "laptop", claimed: floor), now: Self.now)
        == .earlier(previous: Claim(host: "desktop", claimed: Self.at(1000))))
  }
}
