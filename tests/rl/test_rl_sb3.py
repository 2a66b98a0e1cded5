"""docs/rl.md's MaskablePPO recipe (sb3-contrib): a short training, then the model plays
through PolicyStrategy. Skipped when sb3-contrib is not installed."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("sb3_contrib")


def test_maskable_ppo_trains_on_the_single_agent_env_and_plays_as_a_strategy() -> None:
    import gymnasium
    from ginsim.strategies.simple import Simple
    from sb3_contrib import MaskablePPO

    import ginsim.rl
    from ginsim.engine.playhand import play_hand
    from ginsim.engine.rules import Rules

    env = gymnasium.make(ginsim.rl.ENV_ID, opponent="simple", reward="scaled")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64, seed=0)
    model.learn(total_timesteps=256)

    def act(observation: np.ndarray, mask: np.ndarray) -> int:
        obs = {"observation": observation, "action_mask": mask}
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    deck = list(range(52))
    random.Random(5).shuffle(deck)
    res = play_hand(Rules(), [ginsim.rl.PolicyStrategy(act), Simple()], deck, 0)
    assert res.forfeit_seat == -1
