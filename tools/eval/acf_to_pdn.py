#!/usr/bin/env python3
"""Turn the ACF game transcripts of github.com/EricCJoyce/Datasets (Checkers/ACF.txt, MIT
licence) into PDN that `crossboard tune` reads.

The transcripts number the squares 0-31 from Red's side, left to right, with Red's single
corner at 0: square i is standard square 4 * (i // 4) + 4 - i % 4 (the board turned half a
turn). A move is `a-b` or, for a jump, `a-b-c...`; the result follows a tab.

Usage: acf_to_pdn.py ACF.txt > acf.pdn
"""
import sys


def standard(i: int) -> int:
    return 4 * (i // 4) + 4 - i % 4


def move_text(token: str) -> str:
    squares = [standard(int(s)) for s in token.split("-")]
    rows = [(s - 1) // 4 for s in squares]
    jump = abs(rows[1] - rows[0]) == 2
    return ("x" if jump else "-").join(str(s) for s in squares)


def game_text(moves: list[str], result: str, number: int) -> str:
    body = []
    for ply, token in enumerate(moves):
        text = move_text(token)
        body.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
    body.append(result)
    lines, line = [], ""
    for word in body:
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    tags = [
        '[Event "ACF archive"]',
        f'[Round "{number}"]',
        f'[Result "{result}"]',
        '[GameType "21"]',
    ]
    return "\n".join(tags) + "\n\n" + "\n".join(lines) + "\n"


def main() -> None:
    out = []
    with open(sys.argv[1], encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if "\t" not in line:
                continue
            moves, result = line.rstrip("\n").split("\t")
            result = result.strip()
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            out.append(game_text(moves.split(), result, number))
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
