import ginrummy.Card;
import ginrummy.GinRummyPlayer;
import java.util.ArrayList;
import java.util.Random;

/**
 * A port of ginsim's built-in "simple" to the EAAI player interface, for ginsim's tests:
 * take the upcard only if it joins a meld, discard to the least deadwood (never the card
 * just taken), knock as soon as legal. To match ginsim hand for hand it breaks ties as
 * ginsim does: internally it numbers cards as ginsim does (suits C D H S), draws ties from
 * ginsim's splitmix64 generator seeded with the seed ginsim's host sets on its Random
 * field, and shows the same least-deadwood arrangement ginsim would.
 */
public class SimplePort implements GinRummyPlayer {
    static final int[] GINSIM_SUIT = {0, 2, 3, 1}; // framework suit C H S D -> ginsim index
    static final int[] FRAMEWORK_SUIT = {0, 3, 1, 2};
    static final int[] VALUE = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10};
    static final int[] SUIT_VALUE = new int[8192];
    static final int[] RUN_CARDS = new int[8192];
    static final int[][] RUNS = new int[8192][];
    static final long RANK_ALL = 1L | 1L << 13 | 1L << 26 | 1L << 39;

    static {
        for (int p = 0; p < 8192; p++) {
            int v = 0;
            for (int r = 0; r < 13; r++)
                if ((p >> r & 1) != 0)
                    v += VALUE[r];
            SUIT_VALUE[p] = v;
            int three = p & (p >> 1) & (p >> 2);
            RUN_CARDS[p] = three | three << 1 | three << 2;
            RUNS[p] = runs(RUN_CARDS[p]);
        }
    }

    /** The runs covering the stretches of a pattern (each stretch of 3+ is one run). */
    static int[] runs(int cards) {
        ArrayList<Integer> out = new ArrayList<>();
        int r = 0;
        while (r < 13) {
            if ((cards >> r & 1) != 0) {
                int s = r;
                while (r < 13 && (cards >> r & 1) != 0)
                    r++;
                for (int run : cover(s, r - s))
                    out.add(run);
            } else {
                r++;
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Cut a stretch into runs leaving the least value over, first cut found first. */
    static int[] cover(int start, int length) {
        int[] best = new int[length + 1];
        ArrayList<ArrayList<Integer>> cuts = new ArrayList<>();
        cuts.add(new ArrayList<>());
        for (int i = 1; i <= length; i++) {
            int v = best[i - 1] + VALUE[start + i - 1];
            ArrayList<Integer> c = cuts.get(i - 1);
            for (int k = 3; k <= Math.min(13, i); k++) {
                if (best[i - k] < v) {
                    v = best[i - k];
                    c = new ArrayList<>(cuts.get(i - k));
                    c.add(((1 << k) - 1) << (start + i - k));
                }
            }
            best[i] = v;
            cuts.add(c);
        }
        return cuts.get(length).stream().mapToInt(Integer::intValue).toArray();
    }

    static int pattern(long h, int suit) {
        return (int) (h >>> (13 * suit) & 8191);
    }

    static int runsOnly(long h) {
        int d = 0;
        for (int s = 0; s < 4; s++) {
            int p = pattern(h, s);
            d += SUIT_VALUE[p & ~RUN_CARDS[p]];
        }
        return d;
    }

    /** The ways to use the 3 or 4 cards of one rank as a group (0: none), in ginsim's order. */
    static long[] groupOptions(long cards) {
        if (Long.bitCount(cards) == 3)
            return new long[] {0, cards};
        long[] out = new long[6];
        out[1] = cards;
        int i = 2;
        for (long q = cards; q != 0; q &= q - 1)
            out[i++] = cards & ~Long.lowestOneBit(q);
        return out;
    }

    static ArrayList<Long> groupChoices(long h, int ranks) {
        ArrayList<Long> combos = new ArrayList<>();
        combos.add(0L);
        for (int r = 0; r < 13; r++) {
            if ((ranks >> r & 1) == 0)
                continue;
            ArrayList<Long> next = new ArrayList<>();
            for (long x : combos)
                for (long o : groupOptions(h & (RANK_ALL << r)))
                    next.add(x | o);
            combos = next;
        }
        return combos;
    }

    static int threeOfRank(long h) {
        int a = pattern(h, 0), b = pattern(h, 1), c = pattern(h, 2), d = pattern(h, 3);
        return (a & b | c & d) & (a | b) & (c | d);
    }

    static int deadwood(long h) {
        int best = Integer.MAX_VALUE;
        for (long g : groupChoices(h, threeOfRank(h)))
            best = Math.min(best, runsOnly(h & ~g));
        return best;
    }

    /** ginsim's least-deadwood arrangement: melds, and the deadwood in the last slot. */
    static ArrayList<Long> bestMelds(long h) {
        int t3 = threeOfRank(h);
        long groups = 0;
        if (t3 != 0) {
            int runnable = 0;
            for (int s = 0; s < 4; s++)
                runnable |= RUN_CARDS[pattern(h, s)];
            int free = t3 & ~runnable;
            for (int r = 0; r < 13; r++)
                if ((free >> r & 1) != 0)
                    groups |= h & (RANK_ALL << r);
            int conflict = t3 & ~free;
            if (conflict != 0) {
                long rest = h & ~groups;
                int best = Integer.MAX_VALUE;
                long bestG = 0;
                for (long g : groupChoices(rest, conflict)) {
                    int v = runsOnly(rest & ~g);
                    if (v < best) {
                        best = v;
                        bestG = g;
                    }
                }
                groups |= bestG;
            }
        }
        long rest = h & ~groups;
        ArrayList<Long> melds = new ArrayList<>();
        for (int s = 0; s < 4; s++)
            for (int run : RUNS[pattern(rest, s)])
                melds.add((long) run << (13 * s));
        while (groups != 0) {
            int low = Long.numberOfTrailingZeros(groups);
            long grp = groups & (RANK_ALL << (low % 13));
            melds.add(grp);
            groups &= ~grp;
        }
        melds.add((long) runsOnly(rest));
        return melds;
    }

    static boolean meldsWith(int card, long hand) {
        long h = hand | 1L << card;
        int rank = card % 13;
        if (Long.bitCount(h & (RANK_ALL << rank)) >= 3)
            return true;
        return (RUN_CARDS[pattern(h, card / 13)] >> rank & 1) != 0;
    }

    static int ginsim(Card c) {
        return GINSIM_SUIT[c.getSuit()] * 13 + c.getRank();
    }

    static Card framework(int g) {
        return Card.getCard(g % 13, FRAMEWORK_SUIT[g / 13]);
    }

    /** ginsim's generator: splitmix64 from the seed set through setSeed. */
    static final class Splitmix extends Random {
        private long state;

        @Override
        public synchronized void setSeed(long seed) {
            state = seed;
        }

        int below(int n) {
            state += 0x9E3779B97F4A7C15L;
            long z = state;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z = z ^ (z >>> 31);
            long high = Math.multiplyHigh(z, n) + (z < 0 ? n : 0); // unsigned 64x64 high word
            return (int) high;
        }
    }

    protected final Splitmix rng = new Splitmix();
    protected int me;
    protected long hand;
    protected int taken = -1;
    protected boolean wantsUpcard;
    protected boolean opponentKnocked;

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        me = playerNum;
        hand = 0;
        for (Card c : cards)
            hand |= 1L << ginsim(c);
        taken = -1;
        wantsUpcard = false;
        opponentKnocked = false;
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        wantsUpcard = meldsWith(ginsim(card), hand);
        return wantsUpcard;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum != me)
            return;
        int g = ginsim(drawnCard);
        hand |= 1L << g;
        taken = wantsUpcard ? g : -1;
        wantsUpcard = false;
    }

    @Override
    public Card getDiscard() {
        long legal = taken >= 0 ? hand & ~(1L << taken) : hand;
        int best = Integer.MAX_VALUE;
        long cards = 0;
        for (long q = legal; q != 0; q &= q - 1) {
            long bit = Long.lowestOneBit(q);
            int v = deadwood(hand & ~bit);
            if (v < best) {
                best = v;
                cards = bit;
            } else if (v == best) {
                cards |= bit;
            }
        }
        if (Long.bitCount(cards) > 1)
            for (int n = rng.below(Long.bitCount(cards)); n > 0; n--)
                cards &= cards - 1;
        return framework(Long.numberOfTrailingZeros(cards));
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == me) {
            hand &= ~(1L << ginsim(discardedCard));
            taken = -1;
        }
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        ArrayList<Long> melds = bestMelds(hand);
        long deadwood = melds.remove(melds.size() - 1);
        if (!opponentKnocked && deadwood > 10)
            return null;
        ArrayList<ArrayList<Card>> out = new ArrayList<>();
        for (long m : melds) {
            ArrayList<Card> meld = new ArrayList<>();
            for (long q = m; q != 0; q &= q - 1)
                meld.add(framework(Long.numberOfTrailingZeros(q)));
            out.add(meld);
        }
        return out;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        if (playerNum != me)
            opponentKnocked = true;
    }

    @Override
    public void reportScores(int[] scores) {
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
    }
}
