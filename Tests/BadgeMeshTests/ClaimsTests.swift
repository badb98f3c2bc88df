import BadgeCore
import BadgeMesh
import Testing

/// One owner per channel: the first claim stands; at once, the smaller (claimed, host).
@Suite struct ClaimsTests {
  let mail = name("mail")

  @Test func aClaimStandsWhenNoneIsKnown() {
    var claims = Claims(host: "desktop")
    let claim1 = claims.claim(mail, now: 100)
    #expect(claim1 == Claim(host: "desktop", claimed: 100))
    #expect(claims.isHeldHere(mail))
    // Claiming again keeps the first claim's time.
    let claim2 = claims.claim(mail, now: 900)
    #expect(claim2 == Claim(host: "desktop", claimed: 100))
    #expect(claims.held == [mail])
  }

  @Test func aRetainedStateNamingAnotherOwnerIsFoundFirst() {
    var claims = Claims(host: "laptop")
    let verdict1 = claims.heard(mail, Claim(host: "desktop", claimed: 500))
    #expect(verdict1 == .earlier(previous: nil))
    // Even with an earlier clock, laptop does not take it over: the known claim stands.
    let claim3 = claims.claim(mail, now: 10)
    #expect(claim3 == Claim(host: "desktop", claimed: 500))
    #expect(!claims.isHeldHere(mail))
  }

  @Test func twoClaimsAtOnceTheSmallerWinsOnBothMachines() {
    var desktop = Claims(host: "desktop")
    var laptop = Claims(host: "laptop")
    _ = desktop.claim(mail, now: 1000)
    _ = laptop.claim(mail, now: 1000)
    // Same millisecond: the smaller host wins, on each machine alike.
    let verdict2 = desktop.heard(mail, Claim(host: "laptop", claimed: 1000))
    #expect(verdict2 == .later(owner: Claim(host: "desktop", claimed: 1000)))
    #expect(
      laptop.heard(mail, Claim(host: "desktop", claimed: 1000))
        == .earlier(previous: Claim(host: "laptop", claimed: 1000)))
    #expect(desktop.owner(of: mail)?.host == "desktop" && laptop.owner(of: mail)?.host == "desktop")
  }

  @Test func aWinnerNeverGivesWayToALaterClaim() {
    var claims = Claims(host: "desktop")
    _ = claims.claim(mail, now: 1000)
    for later in [
      Claim(host: "laptop", claimed: 1001), Claim(host: "aaa", claimed: 5000), Claim(host: "zzz", claimed: 1000),
    ] {
      let verdict3 = claims.heard(mail, later)
      #expect(verdict3 == .later(owner: Claim(host: "desktop", claimed: 1000)))
    }
    #expect(claims.isHeldHere(mail))
  }

  @Test func theSameOwnerKeepsItsEarliestClaim() {
    var claims = Claims(host: "laptop")
    _ = claims.heard(mail, Claim(host: "desktop", claimed: 500))
    let verdict4 = claims.heard(mail, Claim(host: "desktop", claimed: 800))
    #expect(verdict4 == .owner)
    #expect(claims.owner(of: mail) == Claim(host: "desktop", claimed: 500))
    let verdict5 = claims.heard(mail, Claim(host: "desktop", claimed: 200))
    #expect(verdict5 == .owner)
    #expect(claims.owner(of: mail) == Claim(host: "desktop", claimed: 200))
  }

  @Test func aReleaseForgetsTheOwner() {
    var claims = Claims(host: "laptop")
    _ = claims.heard(mail, Claim(host: "desktop", claimed: 500))
    let released1 = claims.release(mail)
    #expect(released1 == Claim(host: "desktop", claimed: 500))
    #expect(claims.owner(of: mail) == nil)
    let claim4 = claims.claim(mail, now: 900)
    #expect(claim4 == Claim(host: "laptop", claimed: 900))
  }
}
