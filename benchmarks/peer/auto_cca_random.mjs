// Random self-play rate of the auto-cca engine (https://github.com/xpmatteo/auto-cca), the peer figure
// of issue 24 item 1. Our own driver: it imports only auto-cca's model modules from a work tree,
// plays seeded games in which both sides pick uniformly among the engine's legal commands until the
// game ends, and prints one JSON object.
//
//   node benchmarks/peer/auto_cca_random.mjs <auto-cca work tree> [--games 100] [--scenario akragas]
//        [--seed 1] [--warmup 3] [--clone-games 10] [--clone-every 5] [--clone-reps 50]
//
// A decision is one command chosen from game.validCommands() and passed to game.executeCommand().
// The timed figure is process CPU (process.cpuUsage(), user + system) over the timed games only,
// set-up of each game included; warm-up games and the clone measurement are outside it.
//
// Shim (auto-cca's model has no reshuffle: its README says "it does not reshuffle the deck when the
// talon is empty", and a game then dies in PlayCardPhase on an undefined card after about 26 turns):
// before Game.drawCard, if the talon is empty, the engine's own Deck.shuffle() puts the discards back.
// Not shimmed: a hand in which no card can order any unit leaves validCommands() empty (auto-cca has
// no card that may be played to order nobody); such a game stops there, counted under ends.stalled
// with its phase and hand under stalls, its decisions counted.
// Randomness: one mulberry32 stream per game, seeded from --seed and the game's index, drives the
// moves, the dice (passed as Dice(random)) and, installed as Math.random, the engine's deck shuffles.

import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
    const opts = { games: 100, scenario: "akragas", seed: 1, warmup: 3, cloneGames: 10, cloneEvery: 5,
                   cloneReps: 50, maxDecisions: 100000 };
    const names = { "--games": "games", "--scenario": "scenario", "--seed": "seed", "--warmup": "warmup",
                    "--clone-games": "cloneGames", "--clone-every": "cloneEvery", "--clone-reps": "cloneReps",
                    "--max-decisions": "maxDecisions" };
    let root;
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a in names) {
            const v = argv[++i];
            if (v === undefined) throw new Error(`${a} needs a value`);
            opts[names[a]] = names[a] === "scenario" ? v : Number(v);
        } else if (a.startsWith("--")) {
            throw new Error(`unknown option ${a}`);
        } else if (root === undefined) {
            root = a;
        } else {
            throw new Error(`unexpected argument ${a}`);
        }
    }
    if (root === undefined) {
        throw new Error("usage: node auto_cca_random.mjs <auto-cca work tree> [--games N] [--scenario NAME] ...");
    }
    return { root: path.resolve(root), opts };
}

// mulberry32: 32-bit state, floats in [0, 1).
function mulberry32(seed) {
    let a = seed >>> 0;
    return function random() {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

function gameSeed(seed, index) {
    // splitmix-style mix of (seed, index) into 32 bits
    let h = (Math.imul(seed >>> 0, 0x9E3779B1) ^ Math.imul(index + 1, 0x85EBCA77)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x7FEB352D) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x846CA68B) >>> 0;
    return (h ^ (h >>> 16)) >>> 0;
}

function cpuMicros() {
    const u = process.cpuUsage();
    return u.user + u.system;
}

const { root, opts } = parseArgs(process.argv.slice(2));
const load = (rel) => import(pathToFileURL(path.join(root, rel)).href);
const { default: makeGame, Game } = await load("src/model/game.js");
const { makeScenario } = await load("src/model/scenarios.js");
const { Dice } = await load("src/model/dice.js");

// the reshuffle shim (see the header)
const engineDrawCard = Game.prototype.drawCard;
let reshuffles = 0;
Game.prototype.drawCard = function (side) {
    if (this.deck.talonSize === 0) {
        this.deck.shuffle();
        reshuffles++;
    }
    return engineDrawCard.call(this, side);
};

const stalls = [];   // games where the engine lists no legal command before the game is over
const probe = makeScenario(opts.scenario);
const scenarioName = probe.constructor.name;   // makeScenario falls back to Akragas on an unknown name

/** Plays one game; onDecision(game, n) is called before each decision when given. */
function playGame(index, onDecision) {
    const random = mulberry32(gameSeed(opts.seed, index));
    Math.random = random;
    const game = makeGame(makeScenario(opts.scenario), new Dice(random));
    let decisions = 0, choices = 0, end = "finished";
    while (!game.isTerminal()) {
        if (decisions >= opts.maxDecisions) { end = "capped"; break; }
        if (onDecision) onDecision(game, decisions);
        const commands = game.validCommands();
        if (commands.length === 0) {
            end = "stalled";
            stalls.push({ game: index, phase: game.describeCurrentPhase(), hand: [...game.hand()].map(c => c.name) });
            break;
        }
        if (commands.length > 1) choices++;
        game.executeCommand(commands[Math.floor(random() * commands.length)]);
        decisions++;
    }
    return { decisions, choices, end, turns: game.turnCount, status: String(game.gameStatus) };
}

const realRandom = Math.random;
for (let g = 0; g < opts.warmup; g++) playGame(1_000_000 + g);

// timed games
let decisions = 0, choices = 0, turns = 0;
const ends = {}, outcomes = {};
let maxDecisionsInGame = 0;
reshuffles = 0;
const cpu0 = cpuMicros();
for (let g = 0; g < opts.games; g++) {
    const r = playGame(g);
    decisions += r.decisions;
    choices += r.choices;
    turns += r.turns;
    ends[r.end] = (ends[r.end] || 0) + 1;
    outcomes[r.status] = (outcomes[r.status] || 0) + 1;
    if (r.decisions > maxDecisionsInGame) maxDecisionsInGame = r.decisions;
}
const seconds = (cpuMicros() - cpu0) / 1e6;
const timedReshuffles = reshuffles;
const timedStalls = stalls.slice();

// clone cost: at every cloneEvery-th decision of separate games, cloneReps clones of the state
let cloneCount = 0, cloneCpuMicros = 0, cloneWallNanos = 0n, clonePoints = 0;
let sink = 0;
function measureClones(game, n) {
    if (n % opts.cloneEvery !== 0) return;
    const kept = new Array(opts.cloneReps);
    const c0 = cpuMicros();
    const w0 = process.hrtime.bigint();
    for (let i = 0; i < opts.cloneReps; i++) kept[i] = game.clone();
    const w1 = process.hrtime.bigint();
    cloneCpuMicros += cpuMicros() - c0;
    cloneWallNanos += w1 - w0;
    cloneCount += opts.cloneReps;
    clonePoints++;
    sink += kept[kept.length - 1].orderedUnits.length + 1;
}
for (let g = 0; g < opts.cloneGames; g++) playGame(2_000_000 + g, measureClones);
Math.random = realRandom;

let commit = null;
try {
    commit = execFileSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
} catch { /* a tree from git archive has no .git */ }

const round = (x, d) => Number(x.toFixed(d));
console.log(JSON.stringify({
    scenario: scenarioName,
    games: opts.games,
    decisions,
    seconds: round(seconds, 3),
    decisions_per_cpu_second: round(decisions / seconds, 1),
    clone_us: round(cloneCpuMicros / cloneCount, 3),
    clone_wall_us: round(Number(cloneWallNanos) / 1000 / cloneCount, 3),
    clones: cloneCount,
    clone_points: clonePoints,
    decisions_with_a_choice: choices,
    choices_per_cpu_second: round(choices / seconds, 1),
    decisions_per_game: round(decisions / opts.games, 1),
    max_decisions_in_a_game: maxDecisionsInGame,
    turns_per_game: round(turns / opts.games, 1),
    games_per_cpu_minute: round(opts.games / seconds * 60, 1),
    reshuffles_by_shim: timedReshuffles,
    ends,
    stalls: timedStalls,
    outcomes,
    seed: opts.seed,
    warmup_games: opts.warmup,
    work_tree: root,
    work_tree_commit: commit,
    node: process.version,
    clone_check: sink,
}));
