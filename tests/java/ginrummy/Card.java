package ginrummy;

/** Test stand-in for the EAAI framework's card (the public signatures ginsim relies on):
 * 52 shared instances, id = suit * 13 + rank, suits in the order C H S D. */
public class Card {
    public static final int NUM_RANKS = 13;
    public static final int NUM_SUITS = 4;
    public static final int NUM_CARDS = 52;
    public static final String[] rankNames = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"};
    public static final String[] suitNames = {"C", "H", "S", "D"};
    public static final Card[] allCards = new Card[NUM_CARDS];

    static {
        for (int i = 0; i < NUM_CARDS; i++)
            allCards[i] = new Card(i % NUM_RANKS, i / NUM_RANKS);
    }

    public final int rank;
    public final int suit;

    public Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public static Card getCard(int id) {
        return allCards[id];
    }

    public static Card getCard(int rank, int suit) {
        return allCards[suit * NUM_RANKS + rank];
    }

    public int getRank() {
        return rank;
    }

    public int getSuit() {
        return suit;
    }

    public int getId() {
        return suit * NUM_RANKS + rank;
    }

    @Override
    public String toString() {
        return rankNames[rank] + suitNames[suit];
    }
}
