import Compositor
